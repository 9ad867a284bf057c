import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { renderTable } from '../../reporters/summary.ts'
import { isNotAgentsDoing } from '../../src/faults/kinds.ts'
import { Leaderboard } from '../../src/leaderboard/index.ts'
import { renderRunReport } from '../../src/report/index.ts'
import { compareRuns } from '../../src/runs/compare.ts'
import { RunComparison } from '../../src/runs/comparison.ts'
import { readRunFolder } from '../../src/runs/folder.ts'
import { renderComparison } from '../../src/report/comparison.ts'
import { summarize, type RunFacts } from '../../src/runs/summarize.ts'
import { tally } from '../../src/runs/stats.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { RunSummary, Tally } from '../../src/schema/summary.ts'
import { wilson } from '../../src/stats/index.ts'
import { runScript } from '../grader/run-script.ts'
import { writeRun } from '../leaderboard/runs.ts'
import { record, writeRunFolder, type RecordInput } from './fixtures.ts'

const FACTS: RunFacts = { run_id: 'desk', agent: 'cua', agent_model: null, started_at: '2026-01-01T00:00:00.000Z', finished_at: '2026-01-01T00:01:00.000Z', prices: {} }
const FILE = 'tasks/desktop/apps.task.ts'

/** A desktop task's record: passed unless overridden. */
const desktop = (input: RecordInput): RecordInput => ({ category: 'desktop', app: null, file: FILE, test_name: `${input.id}: task`, ...input })
/** Ended by `kind` while the agent was acting: the session records the fault as an error. */
const ended = (id: string, kind: string, message = `${kind} happened`, status: TestCaseRun['status'] = 'error'): RecordInput =>
  desktop({ id, status, agent_status: 'error', error: { kind, message } })

/** The outside tester's run: 16 desktop tasks, 13 passed, 3 whose container was killed under them. */
const KILLED: RecordInput[] = [
  ...Array.from({ length: 13 }, (_, i) => desktop({ id: `desktop-${i + 1}` })),
  ended('desktop-14', 'sandbox_gone', 'container agentest-desktop-14 exited with code 137'),
  ended('desktop-15', 'sandbox_gone', 'container agentest-desktop-15 was removed'),
  ended('desktop-16', 'sandbox_gone', 'container agentest-desktop-16 exited with code 137'),
]

/** Every other way a task can end: the agent's own failures count, the infrastructure's do not. */
const MIXED: RecordInput[] = [
  desktop({ id: 'm-pass' }),
  desktop({ id: 'm-pass-2' }),
  desktop({ id: 'm-check', status: 'failed', error: { kind: 'check_failed', message: 'the file is not saved' } }),
  ended('m-crash', 'agent_error', 'the agent crashed on purpose'),
  desktop({ id: 'm-timeout', status: 'timeout', agent_status: 'timeout', error: { kind: 'timeout', message: 'Test timed out in 60000ms.' } }),
  desktop({ id: 'm-steps', status: 'failed', agent_status: 'max_steps', error: { kind: 'max_steps', message: 'reached 30 steps' } }),
  ended('m-blocked', 'blocked_url', 'https://example.com is not allowed'),
  ended('m-oom', 'out_of_memory', 'a process in container x was OOM-killed at its memory limit of 2048 MB', 'failed'),
  ended('m-too-long', 'model_error', 'the Responses API failed: 400 Your input exceeds the context window of this model.'),
  ended('m-too-long-2', 'model_error', 'the Messages API failed (413): request_too_large: Request exceeds the maximum size'),
  ended('m-api-down', 'model_error', 'the Messages API failed (529): overloaded_error: Overloaded'),
  ended('m-unreachable', 'model_error', 'the Responses API is unreachable: Connection error.'),
  ended('m-clone', 'clone_down', 'the omnizon web clone at http://127.0.0.1:4000 does not answer: ECONNREFUSED'),
  ended('m-gone', 'sandbox_gone', 'container x exited with code 137', 'timeout'),
  ended('m-engine', 'docker_unreachable', 'the Docker engine did not answer about container x'),
  // A person looked at this one and failed it: it counts, as every reviewed task does.
  { ...ended('m-reviewed', 'sandbox_gone'), human_score: 0, human_comment: 'it had gone wrong before the container died' },
]

const records = (inputs: RecordInput[]) => inputs.map(record)

describe('a fault not of the agent’s doing is not a failure', () => {
  test('16 tasks, 3 killed containers, 13 passed: 13/13 = 100%, with 3 faulted beside it and the command that re-runs them', () => {
    const summary = summarize(records(KILLED), FACTS)
    expect(summary.totals).toMatchObject({ total: 16, passed: 13, failed: 0, error: 0, faulted: 3, scored: 13, success_rate: 1, strict_success_rate: 1 })
    expect(summary.totals.faults).toEqual({ sandbox_gone: 3 })
    expect(summary.rerun_faulted).toEqual({
      tasks: ['desktop-14', 'desktop-15', 'desktop-16'],
      kinds: { sandbox_gone: 3 },
      command: `npx vitest run ${FILE} -t '^(desktop-14|desktop-15|desktop-16): '`,
    })
    // The interval and pass@k are over the 13 scored tasks too.
    expect(summary.epochs).toMatchObject({ tasks: 13, success_rate: 1, interval: wilson(13, 13), pass_at_k: { '1': 1 } })
    expect(summary.by_suite.desktop).toMatchObject({ faulted: 3, success_rate: 1 })
    // summary.json round-trips.
    expect(RunSummary.parse(JSON.parse(JSON.stringify(summary)))).toEqual(summary)

    const table = renderTable(summary)
    const header = table.find((line) => line.includes('tasks  passed'))!
    const total = table.find((line) => line.startsWith('  total'))!
    expect(header).toMatch(/ error {2}timeout {2}aborted {2}faulted {2}skipped {2}unscored {2}passed\/scored {2}unscored as failed$/)
    expect(total).toMatch(/^ {2}total +16 +13 +0 +0 +0 +0 +3 +0 +0 +100\.0% +100\.0%$/)
    expect(table).toContain("  3 faulted (not the agent's doing), in neither rate: sandbox_gone 3")
    expect(table).toContain(`  re-run them: npx vitest run ${FILE} -t '^(desktop-14|desktop-15|desktop-16): '`)
    expect(table.some((line) => line.startsWith('  success rate 100.0% (95% CI ') && line.endsWith('over 13 tasks)'))).toBe(true)
    expect(table.some((line) => line.includes('faults in the rates'))).toBe(false)
  })

  test("the re-run's -t selects exactly the faulted tasks, as Vitest matches it against each test's full name", () => {
    // Vitest makes a RegExp of -t and matches it against the suites' names and the test's, joined by spaces.
    const selects = (runs: TestCaseRun[], names: string[]) => {
      const pattern = new RegExp(/-t '(.*)'$/.exec(summarize(runs, FACTS).rerun_faulted!.command)![1]!)
      return names.filter((name) => pattern.test(name))
    }
    const names = [
      ...KILLED.map((r) => `${r.id}: task`),
      'desktop-14: task [near miss: wrong file]', // a variant of a faulted task: the cache decides
      'desktop-16: task [epoch 2/3]',
      'desktop-140: task',
      'real-desktop-14: task',
      'desktop-1: open desktop-14: task', // a title naming another id
    ]
    expect(selects(records(KILLED), names)).toEqual(['desktop-14: task', 'desktop-15: task', 'desktop-16: task', 'desktop-14: task [near miss: wrong file]', 'desktop-16: task [epoch 2/3]'])
    // A task in a describe block: its record's test_name is Vitest's fullName, suites joined by " > ".
    const nested = record({ ...ended('d-1', 'sandbox_gone'), test_name: 'OSUniverse > calc > d-1: task' })
    expect(selects([nested], ['OSUniverse calc d-1: task', 'd-1: task', 'OSUniverse calc d-10: task'])).toEqual(['OSUniverse calc d-1: task'])
  })

  test("a task that failed its checks, whose agent crashed, timed out, ran out of steps, memory or context still counts as failed", () => {
    const t = tally(records(MIXED))
    // Faulted: the 529, the unreachable API, the clone, the killed container, the engine.
    expect(t).toMatchObject({ total: 16, passed: 2, faulted: 5, scored: 11, success_rate: 2 / 11, strict_success_rate: 2 / 11 })
    // Counted as not passed: the check, the crash, the 400 and 413, the blocked URL, the step limit, the OOM, the agent's timeout, the reviewed one.
    expect(t).toMatchObject({ failed: 3, error: 5, timeout: 1 })
    expect(t.faults).toEqual({ clone_down: 1, docker_unreachable: 1, model_error: 4, out_of_memory: 1, sandbox_gone: 2 })
    const summary = summarize(records(MIXED), { ...FACTS, run_id: 'mixed' })
    expect(summary.rerun_faulted?.tasks).toEqual(['m-api-down', 'm-clone', 'm-engine', 'm-gone', 'm-unreachable'])
    expect(renderTable(summary)).toContain(
      "  faults in the rates (the agent's doing): model_error 2 · out_of_memory 1 · sandbox_gone 1 (never reused: the same command runs them again)",
    )
  })

  test('which faults are not the agent’s doing', () => {
    const fault = (kind: string, message = '') => isNotAgentsDoing({ kind, message })
    for (const kind of ['aborted', 'sandbox_gone', 'clone_down', 'docker_unreachable', 'worker_killed', 'sandbox_start']) expect(fault(kind), kind).toBe(true)
    for (const kind of ['out_of_memory', 'disk_limit', 'agent_error', 'check_failed', 'max_steps', 'blocked_url', 'timeout', 'unscored']) expect(fault(kind), kind).toBe(false)
    expect(fault('model_error', 'the Responses API failed: 500 The server had an error')).toBe(true)
    expect(fault('model_error', 'the Responses API failed: 401 Incorrect API key provided')).toBe(true)
    expect(fault('model_error', 'the Chat Completions API failed: 429 Rate limit reached')).toBe(true)
    expect(fault('model_error', 'the Responses API sent a malformed response (3 attempts): not JSON')).toBe(true)
    expect(fault('model_error', 'the Responses API timed out (every retry too)')).toBe(true)
    expect(fault('model_error', 'the Responses API failed: 400 Invalid image')).toBe(false)
    expect(fault('model_error', 'the Messages API failed (400): invalid_request_error: prompt is too long')).toBe(false)
    expect(isNotAgentsDoing(null)).toBe(false)
  })

  test('a summary.json written before faulted tasks were set aside still loads, its rates as they were', () => {
    const old = summarize(records(KILLED), FACTS) as Record<string, unknown>
    const { rerun_faulted: _r, ...rest } = old
    const { faulted: _f, scored: _s, ...totals } = old.totals as Record<string, unknown>
    // As it was written then: the killed tasks under error, in the rates.
    const parsed = RunSummary.parse({ ...rest, totals: { ...totals, error: 3, success_rate: 13 / 16, strict_success_rate: 13 / 16 } })
    expect(parsed.totals).toMatchObject({ faulted: 0, scored: 16, success_rate: 13 / 16 })
    expect(parsed.rerun_faulted).toBeUndefined()
    expect(Tally.parse({ total: 2, passed: 1, failed: 1, error: 0, timeout: 0, skipped: 0, success_rate: 0.5 })).toMatchObject({ faulted: 0, scored: 2 })
  })

  test('the HTML report shows the faulted tasks beside the rate, with the command', () => {
    const runs = records(KILLED)
    for (const summary of [summarize(runs, FACTS), null]) {
      const page = renderRunReport({ records: runs, summary, runId: 'desk' }).replaceAll('&#39;', "'")
      expect(page).toContain('13 passed / 13 scored · 3 faulted, not in it')
      expect(page).toContain("3 faulted (not the agent's doing), in neither rate: sandbox_gone 3.")
      expect(page).toContain(`<code>npx vitest run ${FILE} -t '^(desktop-14|desktop-15|desktop-16): '</code>`)
      expect(page).toMatch(/<tr data-outcome="skipped">\s*<td><a href="#task-desktop-14">/)
      expect(page).toContain('<span class="badge b-faulted">faulted</span>')
    }
  })
})

describe('the summary, compare and the leaderboard agree', { timeout: 120_000 }, () => {
  const resultsDir = mkdtempSync(join(tmpdir(), 'agentest-faulted-'))
  afterAll(() => rmSync(resultsDir, { recursive: true, force: true }))

  test('over the same run folders, faulted records included', async () => {
    const desk = writeRun(resultsDir, { name: 'desk', agent: 'cua', model: 'm1', records: KILLED })
    const mixed = writeRun(resultsDir, { name: 'mixed', agent: 'other', model: 'm2', records: MIXED })
    const summaries = [desk, mixed].map((dir) => RunSummary.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'))))
    const [compared, board] = await Promise.all([runScript('compare.ts', [desk, mixed, '--json']), runScript('leaderboard.ts', [resultsDir, '--json'])])
    expect(compared.code, compared.stderr).toBe(0)
    expect(board.code, board.stderr).toBe(0)
    const c = RunComparison.parse(JSON.parse(compared.stdout))
    const rows = Leaderboard.parse(JSON.parse(board.stdout)).rows
    const [deskSummary, mixedSummary] = summaries as [RunSummary, RunSummary]
    expect(deskSummary.totals.success_rate).toBe(1)
    expect(mixedSummary.totals.success_rate).toBe(2 / 11)

    expect(c.success_rate).toEqual({ a: 1, b: 2 / 11, change: 2 / 11 - 1 })
    expect(c.strict_success_rate).toMatchObject({ a: deskSummary.totals.strict_success_rate, b: mixedSummary.totals.strict_success_rate })
    expect(c.a.faulted).toBe(3)
    expect(c.b.faulted).toBe(5)
    // One attempt per task: the leaderboard's rate over tasks is the summary's, interval and all.
    for (const [agent, summary] of [['cua', deskSummary], ['other', mixedSummary]] as const) {
      const row = rows.find((r) => r.agent === agent)!
      expect(row.overall).toEqual({ tasks: summary.epochs!.tasks, attempts: summary.totals.scored, success_rate: summary.totals.success_rate, interval: summary.epochs!.interval, faulted: summary.totals.faulted })
    }
  })

  test('compare takes a killed task as not scored, never as newly failing', () => {
    const before = writeRunFolder(records(KILLED.map((r) => ({ ...r, status: 'passed', agent_status: 'done', error: null }))), resultsDir, 'before')
    const after = writeRunFolder(records(KILLED).map((r) => ({ ...r, run_id: 'after' })), resultsDir, 'after')
    const c = compareRuns(readRunFolder(before), readRunFolder(after))
    expect(c.newly_failing).toEqual([])
    expect(c.not_scored.map((t) => t.key)).toEqual(['desktop-14', 'desktop-15', 'desktop-16'])
    expect(c.success_rate).toEqual({ a: 1, b: 1, change: 0 })
    expect(c.paired).toMatchObject({ tasks: 13, only_a_passed: 0, only_b_passed: 0 })
    expect(renderComparison(c)).toContain("B: 3 faulted (not the agent's doing), in neither rate")
  })
})
