import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { InputError } from '../errors/input-error.ts'
import { loadConfig } from '../config/load.ts'
import { TestCaseRun } from '../schema/run.ts'
import { CHILD_RUN_ENV, listBenchmarkTests, runBenchmarkChild, type ListedTest } from '../runs/vitest-child.ts'
import { gateRows, type Declared, type GateRow, type GateRuns } from './gate.ts'

/** The agents a task is judged under, and the key of its records in GateRuns. */
const AGENTS = { oracle: 'oracle', nop: 'nop', nearMiss: 'near-miss', alternative: 'alternative' } as const satisfies Record<keyof GateRuns, string>

export interface ValidateOptions {
  root: string
  /** Task ids, task files or folders; ids become an anchored -t filter. */
  targets: readonly string[]
  /** A Vitest config other than the project's default (`--config`), whose `benchmark` project holds the tasks. */
  config?: string
  /** Where the four runs' folders go (each agent gets its own results folder). */
  outDir: string
  /** Keep a screenshot after every step even without a grader (see stepScreenshotsEnv). */
  stepScreenshots?: boolean
  log(line: string): void
}

export interface Validation {
  rows: GateRow[]
  /** The run folder of each agent, for reading the records. */
  runDirs: Record<keyof GateRuns, string | null>
}

/**
 * Vitest's file filters for the targets: paths as given, and each task id as the file that
 * declares it (found by listing every task once); an id no task has is refused.
 */
async function vitestFilters(root: string, targets: readonly string[], config: readonly string[]): Promise<string[]> {
  const paths = targets.filter((t) => existsSync(resolve(root, t)))
  const ids = targets.filter((t) => !paths.includes(t))
  if (ids.length === 0) return paths
  const all = await listBenchmarkTests(root, config, { AGENTEST_AGENT: 'oracle', AGENTEST_EPOCHS: '1' })
  const files = ids.map((id) => all.find((t) => idOf(t.name) === id)?.file ?? null)
  const unknown = ids.filter((_, i) => files[i] === null)
  if (unknown.length) throw new InputError(`no task has the id ${unknown.map((id) => `"${id}"`).join(', ')} (name task ids, task files or folders)`)
  return [...paths, ...new Set(files.map((file) => relative(root, file!)))]
}

/**
 * Runs the named tasks under oracle, nop, near-miss and alternative (two runs at a time, each in
 * its own results folder, nothing reused) and judges each task on them.
 */
export async function validate(options: ValidateOptions): Promise<Validation> {
  const config = options.config ? ['--config', options.config] : []
  const filters = [...config, ...(await vitestFilters(options.root, options.targets, config))]
  // The ids come from the oracle's list: `vitest list` leaves skipped tests out, so a task without
  // near misses (its placeholder is a skipped test) is missing from the variants' lists.
  const [tasks, declared] = await Promise.all([listBenchmarkTests(options.root, filters, { AGENTEST_AGENT: 'oracle', AGENTEST_EPOCHS: '1' }), declaredVariants(options.root, filters)])
  const ids = [...new Set(tasks.map((t) => idOf(t.name)).filter((id): id is string => id !== null))].sort()
  if (ids.length === 0) throw new InputError(`no task in ${options.targets.join(' ')}`)

  const screenshots = stepScreenshotsEnv(options.root, options.stepScreenshots ?? false)
  const runs: Partial<GateRuns> = {}
  const runDirs: Partial<Record<keyof GateRuns, string | null>> = {}
  const queue = Object.entries(AGENTS) as Array<[keyof GateRuns, string]>
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [key, agent] = next
      const started = Date.now()
      const resultsDir = join(options.outDir, agent)
      mkdirSync(resultsDir, { recursive: true })
      const child = await runBenchmarkChild(options.root, filters, {
        ...CHILD_RUN_ENV,
        AGENTEST_AGENT: agent,
        AGENTEST_RESULTS_DIR: resultsDir,
        AGENTEST_RUN_NAME: `validate-${agent}`,
        AGENTEST_EPOCHS: '1',
        AGENTEST_CACHE: 'refresh',
        AGENTEST_PROGRESS_MS: '0',
        ...screenshots,
        CI: 'true',
      })
      const runDir = onlyFolder(resultsDir)
      runDirs[key] = runDir
      runs[key] = runDir ? readRecords(runDir) : []
      options.log(`${agent}: ${runs[key].length} record${runs[key].length === 1 ? '' : 's'} in ${((Date.now() - started) / 1000).toFixed(0)} s`)
      if (!runDir) throw new InputError(`the ${agent} run wrote no records (exit ${child.code}):\n${child.stderr.trim() || child.stdout.slice(-2000)}`)
    }
  }
  await Promise.all([worker(), worker()])
  return { rows: gateRows(ids, declared, runs as GateRuns), runDirs: runDirs as Validation['runDirs'] }
}

/**
 * The runs' step screenshots. Without a grader no verdict reads one: checks read state, answers
 * and output, and judged checks go unscored. Each record keeps its steps and its final screen,
 * and the runs cost Chromium a capture less per step. With a grader, a flow check is judged on
 * the steps' screenshots, so the runs keep what the project's config says, as a benchmark run would.
 */
export function stepScreenshotsEnv(root: string, keep: boolean, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  if (keep) return { AGENTEST_STEP_SCREENSHOTS: 'true' }
  return loadConfig(root, env).config.grader.model === null ? { AGENTEST_STEP_SCREENSHOTS: 'false' } : {}
}

/**
 * Every variant the filtered tasks declare, as Vitest collects them (`vitest list`): a near miss
 * that then produces no record is a problem rather than a silent gap.
 */
export async function declaredVariants(root: string, filters: readonly string[]): Promise<Declared> {
  const [nearMisses, alternatives] = await Promise.all([
    listBenchmarkTests(root, filters, { AGENTEST_AGENT: 'near-miss', AGENTEST_EPOCHS: '1' }),
    listBenchmarkTests(root, filters, { AGENTEST_AGENT: 'alternative', AGENTEST_EPOCHS: '1' }),
  ])
  return { nearMisses: variantsById(nearMisses), alternatives: variantsById(alternatives) }
}

function idOf(name: string): string | null {
  return /^([^:\s]+): /.exec(name)?.[1] ?? null
}

/** `<id>: <title> [near miss: <name>]` -> id -> names. */
function variantsById(tests: readonly ListedTest[]): Map<string, string[]> {
  const variants = new Map<string, string[]>()
  for (const { name } of tests) {
    const match = /^([^:\s]+): .* \[(?:near miss|alternative): (.+)\]$/.exec(name)
    if (!match) continue
    variants.set(match[1]!, [...(variants.get(match[1]!) ?? []), match[2]!])
  }
  return variants
}

function onlyFolder(resultsDir: string): string | null {
  const folders = readdirSync(resultsDir, { withFileTypes: true }).filter((d) => d.isDirectory() && !d.name.startsWith('.'))
  return folders.length === 1 ? join(resultsDir, folders[0]!.name) : null
}

function readRecords(runDir: string): TestCaseRun[] {
  return readdirSync(runDir)
    .filter((f) => f.endsWith('.json') && f !== 'summary.json')
    .map((f) => TestCaseRun.parse(JSON.parse(readFileSync(join(runDir, f), 'utf8'))))
}
