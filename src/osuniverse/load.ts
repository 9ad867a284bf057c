import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, extname, join, relative } from 'node:path'
import { parse } from 'yaml'
import { describeZodError, InputError } from '../errors/input-error.ts'
import { TaskId } from '../schema/task.ts'
import { caseImage, type CaseImage } from './images.ts'
import { needsInternet } from './internet.ts'
import { unmetNeeds } from './needs.ts'
import { expandPlaceholders } from './placeholders.ts'
import { OsuniverseCase } from './schema.ts'

/** A case as agentest runs it: the YAML with its placeholders expanded, plus where it came from. */
export interface LoadedCase {
  /** `<category>/<stem>`, or `<stem>` for a file at the folder's top: what solutions are keyed by. */
  key: string
  /** agentest's task id: `osuniverse-<category>-<stem>` (or `osuniverse-<stem>`), lowercase. */
  id: string
  /** OSUniverse's category: the folder the file is in (testcases/<category>/<id>.yaml). */
  category: string
  file: string
  case: OsuniverseCase
  image: CaseImage
  /** Why the case cannot run here (the internet, or what its image lacks), in one line; or null. */
  skip: string | null
  /** It needs the open internet and the user allowed it: its container gets a network. */
  network: boolean
}

export interface LoadOptions {
  /** The clock `[%MONTH+k%]` is read against (OSUniverse reads it when it loads a case). */
  now?: Date
  /** Folder that file names in messages are relative to. */
  cwd?: string
  /** Run the cases that need the open internet, with a network (AGENTEST_OSUNIVERSE_INTERNET=1). */
  internet?: boolean
  /** The Dockerfile folder OSUniverse's own image maps to (default: MAPPED_IMAGE_DIR). */
  imageDir?: string
}

const SUITE = 'osuniverse'
const YAML = new Set(['.yaml', '.yml'])

/**
 * Loads a folder of OSUniverse test cases: its `*.yaml`/`*.yml` files and those one folder down
 * (OSUniverse's testcases/<category>/<id>.yaml), sorted by path. A file that is not valid YAML
 * or not a valid case ends the load with one line per problem, naming the file and the field.
 */
export function loadCases(dir: string, options: LoadOptions = {}): LoadedCase[] {
  const now = options.now ?? new Date()
  const shown = (file: string) => relative(options.cwd ?? process.cwd(), file) || file
  const problems: string[] = []
  const cases: LoadedCase[] = []
  for (const { file, category } of caseFiles(dir, shown)) {
    const parsed = readCase(file, shown(file))
    if (typeof parsed === 'string') {
      problems.push(parsed)
      continue
    }
    const stem = basename(file, extname(file))
    const expanded = expand(parsed, now)
    const image = caseImage(expanded.desktop_image, file, options.imageDir)
    const online = needsInternet(expanded)
    cases.push({
      key: category === null ? stem : `${category}/${stem}`,
      id: taskId(category, stem),
      category: category ?? SUITE,
      file,
      case: expanded,
      image,
      skip: skipReason(expanded, image, online, options.internet ?? false),
      network: online !== null && (options.internet ?? false),
    })
  }
  problems.push(...duplicateIds(cases, shown))
  if (problems.length) throw InputError.bare(problems.join('\n'))
  return cases
}

/**
 * Why a case is not run, in one line: it needs the internet (unless allowed), or something its
 * image does not declare (capabilities.json). An image without a declaration is taken as is.
 */
function skipReason(testCase: OsuniverseCase, image: CaseImage, online: string | null, internet: boolean): string | null {
  if (online && !internet) return `${online} (AGENTEST_OSUNIVERSE_INTERNET=1 runs it with a network)`
  const unmet = image.has ? unmetNeeds(testCase, image.has) : []
  if (unmet.length === 0) return null
  const name = image.kind === 'mapped' ? image.dir : image.image
  return `needs what its desktop (${name.replace(/^.*\/fixtures\/images\//, 'fixtures/images/')}) lacks: ${unmet.join('; ')}`
}

function caseFiles(dir: string, shown: (file: string) => string): Array<{ file: string; category: string | null }> {
  let entries
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    throw InputError.bare(`${shown(dir)}: no such folder of OSUniverse test cases`)
  }
  const isYaml = (name: string) => YAML.has(extname(name).toLowerCase())
  const files: Array<{ file: string; category: string | null }> = entries.filter((e) => e.isFile() && isYaml(e.name)).map((e) => ({ file: join(dir, e.name), category: null }))
  for (const folder of entries.filter((e) => e.isDirectory())) {
    const inner = readdirSync(join(dir, folder.name)).filter((name) => isYaml(name) && statSync(join(dir, folder.name, name)).isFile())
    files.push(...inner.map((name) => ({ file: join(dir, folder.name, name), category: folder.name })))
  }
  return files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
}

/** The case, or the lines saying why it is not one. */
function readCase(file: string, where: string): OsuniverseCase | string {
  let data: unknown
  try {
    // YAML 1.1 and repeated keys allowed, as PyYAML's safe_load reads OSUniverse's files.
    data = parse(readFileSync(file, 'utf8'), { version: '1.1', uniqueKeys: false })
  } catch (error) {
    return `${where}: not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return `${where}: expected a mapping of name, level, task, setup_cmd, desktop_image and checks`
  const parsed = OsuniverseCase.safeParse(data, { reportInput: true })
  return parsed.success ? parsed.data : describeZodError(where, parsed.error)
}

function expand(testCase: OsuniverseCase, now: Date): OsuniverseCase {
  const fill = (text: string) => expandPlaceholders(text, now)
  return {
    ...testCase,
    task: fill(testCase.task),
    checks: testCase.checks.map((check) => (check.type === 'command_output' ? { ...check, value: fill(check.value), command: fill(check.command) } : { ...check, value: fill(check.value) })),
  }
}

/** Ids are lowercase (agentest's rule); any other character becomes "-". */
function taskId(category: string | null, stem: string): string {
  const id = [SUITE, category, stem]
    .filter((part): part is string => part !== null)
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
  return TaskId.parse(id)
}

function duplicateIds(cases: readonly LoadedCase[], shown: (file: string) => string): string[] {
  const byId = new Map<string, string[]>()
  for (const c of cases) byId.set(c.id, [...(byId.get(c.id) ?? []), shown(c.file)])
  return [...byId.entries()].filter(([, files]) => files.length > 1).map(([id, files]) => `${files.join(' and ')}: both become the task "${id}"; rename one`)
}
