/**
 * The harness side: `vitest run --project benchmark <tasks> --maxWorkers=N` under openai-cua,
 * pointed at the slow scripted model, into a temporary results folder. Every task must pass and
 * reach its recorded end state.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { loadRunFolder } from '../../src/agents/replay/recorded-run.ts'
import { vitestBin } from '../../src/runs/vitest-child.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { recordKey } from '../../src/schema/task.ts'
import type { TreeSample } from './memory.ts'
import { runMeasuredChild, type ChildRun } from './concurrency-child.ts'
import type { SlowModel } from './concurrency-model.ts'
import { readFinish, ROOT, type OracleRecording } from './concurrency-oracle.ts'

export interface HarnessOptions {
  /** Task files (or folders) to run, relative to the root. */
  files: string[]
  /** Vitest workers (--maxWorkers); none named: the run's own choice (one worker for run.concurrency > 1). */
  workers?: number
  model: SlowModel
  oracle: OracleRecording
  /** The records the run must write (by record key: omnizon-1, omnizon-1.e2, ...), each with the recorded task it repeats. */
  expected: Map<string, string>
  /** More of the run's environment (AGENTEST_EPOCHS, AGENTEST_CONCURRENCY). */
  env?: Record<string, string>
  /** Another vitest config (the P5 copies). */
  config?: string
  taskTimeoutMs?: number
  guard?: (sample: TreeSample) => string | null
}

export interface HarnessOutcome {
  run: ChildRun
  records: TestCaseRun[]
  problems: string[]
}

export async function runHarness(options: HarnessOptions): Promise<HarnessOutcome> {
  const results = mkdtempSync(join(tmpdir(), 'agentest-perf-cua-'))
  try {
    const run = await runMeasuredChild({
      command: process.execPath,
      args: [
        vitestBin(ROOT),
        'run',
        ...(options.config ? ['--config', options.config, '--root', ROOT] : []),
        '--project',
        'benchmark',
        ...options.files,
        ...(options.workers ? [`--maxWorkers=${options.workers}`] : []),
      ],
      cwd: ROOT,
      env: {
        ...options.model.env,
        CI: 'true',
        NO_COLOR: '1',
        AGENTEST_AGENT: 'openai-cua',
        AGENTEST_RESULTS_DIR: results,
        AGENTEST_RUN_ID: 'cua',
        AGENTEST_CACHE: 'refresh',
        AGENTEST_PROGRESS_MS: '0',
        ...(options.taskTimeoutMs ? { AGENTEST_TASK_TIMEOUT_MS: String(options.taskTimeoutMs) } : {}),
        ...options.env,
      },
      inFlight: options.model.inFlight,
      guard: options.guard,
    })
    const dir = join(results, 'cua')
    let records: TestCaseRun[] = []
    try {
      records = loadRunFolder(dir)
    } catch {
      // No run folder: every expected task is reported missing below.
    }
    const problems = run.stopped ? [] : verify(records, dir, options)
    if (!run.stopped && run.code !== 0 && problems.length === 0) problems.push(`vitest exited ${run.code}: ${run.stderr.slice(-500)}`)
    return { run, records, problems }
  } finally {
    rmSync(results, { recursive: true, force: true })
  }
}

/** Every expected task passed and ended where its recording did; the model saw every goal. */
function verify(records: TestCaseRun[], dir: string, options: HarnessOptions): string[] {
  const problems = [...options.model.faults.map((f) => `scripted model: ${f}`)]
  const byKey = new Map(records.map((r) => [recordKey(r), r]))
  for (const [id, base] of options.expected) {
    const record = byKey.get(id)
    if (!record) {
      problems.push(`${id}: no record`)
      continue
    }
    if (record.status !== 'passed') {
      problems.push(`${id}: ${record.status}${record.error ? ` (${record.error.kind}: ${record.error.message.split('\n')[0]!.slice(0, 160)})` : ''}`)
      continue
    }
    const recorded = options.oracle.finish(base)
    const now = readFinish(dir, record)
    if (!isDeepStrictEqual(now.diff, recorded.diff)) problems.push(`${id}: the end state differs from the oracle's`)
  }
  return problems
}
