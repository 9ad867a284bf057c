import { z } from 'zod'
import { InputError } from '../errors/input-error.ts'
import type { OsuniverseCase } from './schema.ts'

/**
 * Whether a case needs the open internet, which a task's container never has. A case needs it
 * when it names a public URL (http, https or ftp to a host other than this machine) in its task,
 * setup_cmd or checks; when its setup or check commands download (wget, curl, git clone, pip,
 * npm or apt install); or when its task names a public site without a scheme (www.example.org,
 * airbnb.com) or names one without an address (Wikipedia, Google), says it is online ("the
 * internet", "on the web", "search the web"), or has the agent search for something and download
 * it. file:// URLs and localhost are not the internet. Null when it needs none; else the reason.
 */
export function needsInternet(testCase: Pick<OsuniverseCase, 'task' | 'setup_cmd' | 'checks'>): string | null {
  const places: Array<[string, string]> = [
    ['its task', testCase.task],
    ['its setup_cmd', testCase.setup_cmd ?? ''],
    ...testCase.checks.flatMap((check, i): Array<[string, string]> => [
      [`its check ${i + 1} (${check.type})`, check.value],
      ...(check.type === 'command_output' ? [[`the command of its check ${i + 1}`, check.command] as [string, string]] : []),
    ]),
  ]
  for (const [where, text] of places) {
    const url = publicUrl(text)
    if (url) return `needs the open internet: ${where} names ${url}`
  }
  for (const [where, text] of places.filter(([where]) => where === 'its setup_cmd' || where.startsWith('the command'))) {
    const download = DOWNLOAD.exec(text)?.[0]
    if (download) return `needs the open internet: ${where} downloads (${download.replace(/\s+/g, ' ')})`
  }
  const site = BARE_SITE.exec(testCase.task)?.[0]
  if (site) return `needs the open internet: its task names the site ${site}`
  const named = NAMED_SITE.exec(testCase.task)?.[0]
  if (named) return `needs the open internet: its task names the site ${named}`
  const words = ONLINE.exec(testCase.task)?.[0]
  if (words) return `needs the open internet: its task says "${words}"`
  if (SEARCH_AND_DOWNLOAD.test(testCase.task)) return 'needs the open internet: its task searches for something and downloads it'
  return null
}

const URL_PATTERN = /\b(?:https?|ftp):\/\/([^\s/'"`<>()[\]]+)[^\s'"`<>)]*/gi
const LOCAL_HOSTS = /^(?:localhost|127(?:\.\d+){3}|0\.0\.0\.0|\[::1\]|host\.docker\.internal)(?::\d+)?$/i

function publicUrl(text: string): string | null {
  for (const match of text.matchAll(URL_PATTERN)) {
    const host = match[1]!.replace(/^[^@]*@/, '')
    if (!LOCAL_HOSTS.test(host)) return match[0].replace(/[.,;:!?]+$/, '')
  }
  return null
}

const DOWNLOAD = /\b(?:wget|curl|git\s+clone|pip3?\s+install|npm\s+(?:install|i)\b|apt(?:-get)?\s+install)/i
/** Only in the task: in commands such names are file names (notes.org) as often as sites. */
const BARE_SITE = /\b(?:www\.[a-z0-9-]+(?:\.[a-z0-9-]+)+|[a-z0-9-]+\.(?:com|net|io|edu|gov))\b/i
/** Public sites named without an address: the agent could only reach them online. */
const NAMED_SITE = /\b(?:Wikipedia|Google|YouTube|GitHub|Stack Overflow|Reddit|DuckDuckGo|Bing|Amazon)\b/
/** "Search for ... and download an image": something found and fetched online, wherever from. */
const SEARCH_AND_DOWNLOAD = /\bsearch for\b[^]*?\bdownload\b/i
const ONLINE = /\b(?:the internet|on the web|search the web|web search|online)\b/i

/** AGENTEST_OSUNIVERSE_INTERNET: `1` runs the cases that need the internet, with a network; unset or `0` skips them. */
const InternetOptIn = z.enum(['', '0', '1'], { error: (issue) => `AGENTEST_OSUNIVERSE_INTERNET: expected 1 (run the cases that need the internet, with a network) or 0, got ${JSON.stringify(issue.input)}` })

export function internetAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  const parsed = InternetOptIn.safeParse(env.AGENTEST_OSUNIVERSE_INTERNET ?? '')
  if (!parsed.success) throw InputError.bare(parsed.error.issues[0]!.message)
  return parsed.data === '1'
}
