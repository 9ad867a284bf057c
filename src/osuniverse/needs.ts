import type { APPS, FEATURES, ImageCapabilities } from './capabilities.ts'
import type { OsuniverseCase } from './schema.ts'

type App = (typeof APPS)[number]
type Feature = (typeof FEATURES)[number]

/**
 * What a case asks of its desktop, read from its words, its setup and its check commands, against
 * what the image declares (capabilities.json). A case is run only when every need is met: a case
 * run on a desktop without the app or the feature it names cannot be passed by a right run.
 */

/** Apps by how OSUniverse's tasks name them. */
const APP_WORDS: ReadonlyArray<[RegExp, App, string]> = [
  [/\bLibreOffice Calc\b/i, 'calc', 'LibreOffice Calc'],
  [/\bLibreOffice Writer\b/i, 'writer', 'LibreOffice Writer'],
  [/\bLibreOffice Impress\b/i, 'impress', 'LibreOffice Impress'],
  [/\bGIMP\b/, 'gimp', 'GIMP'],
  [/\bInkscape\b/i, 'inkscape', 'Inkscape'],
  [/\b(?:the |a )?(?:web )?browser\b|\bFirefox\b/i, 'browser', 'a web browser'],
  [/\bterminal\b/i, 'terminal', 'a terminal'],
  [/\bimage viewer\b/i, 'image-viewer', 'an image viewer'],
  [/\btext editor\b/i, 'text-editor', 'a text editor'],
  [/\bfile manager\b/i, 'file-manager', 'a file manager'],
]

/** Desktop features by how the tasks (or, for the clock, their rubrics) name them. */
const FEATURE_WORDS: ReadonlyArray<[RegExp, Feature, string]> = [
  [/\bApplications(?: menu\b|\s*>)/i, 'applications-menu', 'the Applications menu'],
  [/'Office' section/i, 'menu-section:office', "the Applications menu's Office section"],
  [/'Graphics' section/i, 'menu-section:graphics', "the Applications menu's Graphics section"],
  [/\bAbout Xfce\b/i, 'about-xfce', "Xfce's About dialog"],
  [/\bdesktop settings\b|\bDesktop Preferences\b/i, 'desktop-settings', "the desktop's settings"],
  [/\bIcon Orientation\b|\bdesktop icons?\b/i, 'desktop-icons', 'desktop icons'],
  [/\bopen (?:the )?\w+ from the desktop\b/i, 'desktop-launchers', 'launchers on the desktop'],
]
const CLOCK_WORDS = /\bclock\b|\b(?:date|time)\b[^.]*\bvisible\b[^.]*\bscreen\b/i

/** What the shell and every agentest desktop image have (coreutils, the setup's waits). */
const BASE_COMMANDS = new Set(
  'cd sleep cat ls grep seq echo printf wc mkdir rm rmdir touch tar sort head tail cp mv ln chmod chown find diff test true false sh bash exit kill wait export unset read sed awk tr cut date env id pwd xargs which file stat basename dirname uniq tee gzip gunzip zip unzip python3 apk sudo'.split(' '),
)
const SHELL_WORDS = new Set(['for', 'in', 'do', 'done', 'while', 'until', 'if', 'then', 'elif', 'else', 'fi', 'case', 'esac', 'break', 'continue', '{', '}', '!', '[', '[[', ':'])
const PREFIXES = new Set(['sudo', 'setsid', 'nohup', 'exec', 'then', 'do', 'else', 'time', 'env', '!'])

/** The programs a shell text runs, in order: the first word of each command, past sudo and the like. */
export function programsRun(shell: string): string[] {
  const bare = shell
    .replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, ' STRING ')
    .replace(/\d*[<>]&\d+|\d*>>?\s*\S+|<\s*\S+/g, ' ')
  const programs: string[] = []
  for (const segment of bare.split(/&&|\|\||[;|&\n()`]|\$\(/)) {
    const words = segment.trim().split(/\s+/).filter((w) => w && !/^\w+=/.test(w))
    let i = 0
    while (i < words.length && PREFIXES.has(words[i]!)) i++
    const word = words[i]
    if (word && !SHELL_WORDS.has(word) && word !== 'STRING' && !/^-/.test(word) && !/^\d+$/.test(word)) programs.push(word.replace(/^.*\//, ''))
  }
  return programs
}

/** The packages a setup installs with `apk add` (OSUniverse's Alpine). */
export function apkAdds(shell: string): string[] {
  return [...shell.matchAll(/\bapk\s+add\s+([^;&|\n]*)/g)].flatMap((m) => m[1]!.split(/\s+/).filter((w) => w && !w.startsWith('-')))
}

/** The packages a task asks the agent to install ("Install ImageMagick", "Install the 'htop' package"). */
export function installsAsked(task: string): string[] {
  const names = [...task.matchAll(/\binstall(?:ed|ing)?\s+(?:the\s+)?['"]?([A-Za-z][\w.+-]*)/gi)].map((m) => m[1]!.replace(/[.]+$/, '').toLowerCase())
  return names.filter((w) => !NOT_PACKAGES.has(w))
}
const NOT_PACKAGES = new Set(['it', 'a', 'an', 'this', 'that', 'them', 'any', 'package', 'packages', 'and', 'using', 'with'])

/** Each need of the case the image does not meet, in words, with where the case says it. */
export function unmetNeeds(testCase: Pick<OsuniverseCase, 'task' | 'setup_cmd' | 'checks'>, has: ImageCapabilities): string[] {
  const unmet: string[] = []
  const setup = testCase.setup_cmd?.trim() === 'None' ? '' : (testCase.setup_cmd ?? '')
  const installable = has.packages.installable
  const added = apkAdds(setup).map((p) => p.toLowerCase())
  for (const pkg of added) {
    if (!has.packages.preinstalled.includes(pkg) && !Object.hasOwn(installable, pkg)) unmet.push(`the package ${pkg} (its setup_cmd installs it)`)
  }
  // Programs a setup or check runs: the image's, the shell's, or those of a package the setup added
  // (and, for the checks, of a package the task has the agent install).
  const programsOf = (pkgs: readonly string[]) => pkgs.flatMap((p) => installable[p]?.programs ?? [])
  const inSetup = new Set([...BASE_COMMANDS, ...has.commands, ...programsOf(added)])
  const inChecks = new Set([...inSetup, ...programsOf(installsAsked(testCase.task))])
  const commands: Array<[string, string, Set<string>]> = [
    ['its setup_cmd', setup, inSetup],
    ...testCase.checks.flatMap((check, i): Array<[string, string, Set<string>]> => (check.type === 'command_output' ? [[`the command of its check ${i + 1}`, check.command, inChecks]] : [])),
  ]
  for (const [where, shell, given] of commands) {
    for (const program of new Set(programsRun(shell))) if (!given.has(program)) unmet.push(`the program ${program} (${where} runs it)`)
  }
  for (const [words, app, what] of APP_WORDS) if (words.test(testCase.task) && !has.apps.includes(app)) unmet.push(`${what} (its task names it)`)
  for (const [words, feature, what] of FEATURE_WORDS) if (words.test(testCase.task) && !has.features.includes(feature)) unmet.push(`${what} (its task names it)`)
  const rubrics = testCase.checks.map((c) => c.value).join('\n')
  if (CLOCK_WORDS.test(`${testCase.task}\n${rubrics}`) && !has.features.includes('clock')) unmet.push('a clock on the screen (its checks read it)')
  for (const pkg of installsAsked(testCase.task)) {
    if (has.harness_tools.includes(pkg)) unmet.push(`a desktop without ${pkg} (its task asks the agent to install it, and the harness itself runs it)`)
    else if (added.includes(pkg)) unmet.push(`a desktop without ${pkg} (its task asks the agent to install it, and its setup_cmd already does)`)
    else if (Object.hasOwn(installable, pkg)) continue
    else if (has.packages.preinstalled.includes(pkg)) unmet.push(`a desktop without ${pkg} (its task asks the agent to install it, and the image has it from the start)`)
    else unmet.push(`the package ${pkg} to install offline (its task asks the agent to install it)`)
  }
  return [...new Set(unmet)]
}
