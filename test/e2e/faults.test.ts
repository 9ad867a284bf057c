import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ROOT, runBenchmark, VITEST } from './run-benchmark.ts'

const FAULT_AGENTS = { AGENTEST_CONFIG: 'test/data/faults.config.yaml' }

/** Bad input must read as one line, with no stack trace. */
function expectOneLine(stderr: string, line: string | RegExp): void {
  const lines = stderr.split('\n').filter((l) => l.trim() !== '' && !l.includes('nodedir') && !l.startsWith('npm warn'))
  expect(lines, stderr).toHaveLength(1)
  expect(lines[0]).toMatch(line)
}

function expectOneAgentestLine(stderr: string, line: string | RegExp): void {
  const lines = stderr.split('\n').filter((l) => l.startsWith('agentest:'))
  expect(lines, stderr).toHaveLength(1)
  expect(lines[0]).toMatch(line)
}

describe('bad input gets one clear line', { timeout: 120_000 }, () => {
  test('an unknown agent name', async () => {
    const run = await runBenchmark(['tasks/omnizon'], { AGENTEST_AGENT: 'gpt-9' })
    expect(run.code).toBe(1)
    expectOneLine(run.stderr, 'agentest: AGENTEST_AGENT: unknown agent "gpt-9" (known: oracle, nop, near-miss, alternative, openai-cua, openai-chat, anthropic-cu, replay, image, command)')
  })

  test('a task id that matches nothing', async () => {
    const run = await runBenchmark(['tasks/omnizon', '-t', 'omnizon-99\\b'])
    expect(run.code).toBe(1)
    expectOneLine(run.stderr, "agentest: no task matches -t /omnizon-99\\b/ (task names start with their id, e.g. -t 'omnizon-3\\b')")
  })

  test("-t that picks only the framework's own tests is not a mistyped task id", () => {
    // Without --project every project loads, the benchmark's among them; its reporter must not count these files as tasks.
    const run = spawnSync(process.execPath, [VITEST, 'run', 'test/unit/keys.test.ts', '-t', 'an unknown key name'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', NO_COLOR: '1' },
    })
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/1 passed/)
    expect(run.stderr).not.toContain('agentest:')
  })

  test('an unknown cache mode', async () => {
    const run = await runBenchmark(['tasks/omnizon'], { AGENTEST_CACHE: 'sometimes' })
    expect(run.code).toBe(1)
    expectOneLine(run.stderr, /^agentest: AGENTEST_CACHE="sometimes": run\.cache: /)
  })

  test('malformed YAML', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'agentest-yaml-')), 'broken.yaml')
    writeFileSync(file, 'agent:\n  name: oracle\n browser: [\n')
    const run = await runBenchmark(['tasks/omnizon'], { AGENTEST_CONFIG: file })
    expect(run.code).toBe(1)
    expectOneLine(run.stderr, /^agentest: .*broken\.yaml:\d+:\d+: malformed YAML/)
  })

  test('a config field of the wrong type', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'agentest-yaml-')), 'typed.yaml')
    writeFileSync(file, 'browser:\n  headless: sometimes\n')
    const run = await runBenchmark(['tasks/omnizon'], { AGENTEST_CONFIG: file })
    expect(run.code).toBe(1)
    expectOneLine(run.stderr, /^agentest: .*typed\.yaml: browser\.headless: /)
  })

  test('no browser found', async () => {
    const run = await runBenchmark(['tasks/omnizon'], { AGENTEST_BROWSER: '/nonexistent/chromium' })
    expect(run.code).toBe(1)
    expectOneLine(run.stderr, 'agentest: browser.executable_path: no browser at /nonexistent/chromium (fix the path, or unset it to search)')
  })

  // Each mistake ends the run at load with its one line (and no "no task matches -t" after it).
  const MISTAKES: Array<[string, RegExp]> = [
    ['no-goal', /^agentest: test\/data\/bad-tasks\/no-goal\.task\.ts: agentTest\(\): goal: every task needs a goal$/],
    ['unknown-image', /^agentest: test\/data\/bad-tasks\/unknown-image\.task\.ts: agentTest\(\): desktop_image: "Windows XP" is neither a bundled image \(agentest\/desktop\), an image name, nor a path/],
    ['unknown-level', /^agentest: test\/data\/bad-tasks\/unknown-level\.task\.ts: agentTest\(\): level: .*"paper"/],
    ['misspelt-option', /^agentest: test\/data\/bad-tasks\/misspelt-option\.task\.ts: agentTest\(\): max_step: not an agentTest\(\) option; did you mean "max_steps"\?$/],
    ['misnamed', /^agentest: test\/data\/bad-tasks\/misnamed\.task\.ts: agentTest\(\): id: "renamed-task" differs from the file name: name the file renamed-task\.task\.ts/],
    ['unknown-seed', /^agentest: test\/data\/bad-tasks\/unknown-seed\.task\.ts: agentTest\(\): seed: Omnizon has no seed "past-order" \(did you mean "past-orders"\?\); its seeds: default, past-orders$/],
    ['capital-near-miss', /^agentest: test\/data\/bad-tasks\/capital-near-miss\.task\.ts: agentTest\(\): near_misses\.Wrong Item: "Wrong Item" is not a valid name: a variant name is lowercase words/],
  ]
  test.each(MISTAKES)('a task file with a mistake (%s) ends the run with one line naming the file and the field', async (name, line) => {
    const run = await runBenchmark(['--config', 'test/data/fixture-tasks.vitest.config.ts', '-t', 'never runs'], {
      FIXTURE_TASKS: `test/data/bad-tasks/${name}.task.ts`,
    })
    expect(run.code).toBe(1)
    // Vitest also shows the failed file, with the same line; agentest says it once, and nothing else.
    expectOneAgentestLine(run.stderr, line)
    // No stack frames or code frame: just the line; and no summary of a run that did not happen.
    expect(run.stdout + run.stderr).not.toMatch(/^\s+at |❯ .*\.ts:\d+:\d+/m)
    expect(run.summary).toBeNull()
  })

  test('two files that declare the same id are both named', async () => {
    const run = await runBenchmark(['--config', 'test/data/fixture-tasks.vitest.config.ts'], { FIXTURE_TASKS: 'test/data/duplicate-tasks/**/*.task.ts' })
    expect(run.code).toBe(1)
    expectOneAgentestLine(
      run.stderr,
      'agentest: test/data/duplicate-tasks/a/twin.task.ts and test/data/duplicate-tasks/b/twin.task.ts: id: both declare the task "twin"; task ids must be unique (a task\'s records are named by its id)',
    )
    expect(run.summary).toBeNull()
  })
})

describe('faults end one task with a recorded error; the others go on', { timeout: 180_000 }, () => {
  test('an agent that throws', async () => {
    const run = await runBenchmark(['tasks/omnizon/omnizon-1.task.ts', 'tasks/omnizon/omnizon-2.task.ts'], { ...FAULT_AGENTS, AGENTEST_AGENT: 'crash' })
    expect(run.code).toBe(1)
    expect(run.results.map((r) => r.id).sort()).toEqual(['omnizon-1', 'omnizon-2'])
    for (const result of run.results) {
      expect(result.status).toBe('error')
      expect(result.agent_status).toBe('error')
      expect(result.error).toEqual({ kind: 'agent_error', message: 'the agent crashed on purpose' })
      expect(result.trajectory).toHaveLength(1)
    }
    expect(run.summary?.totals).toMatchObject({ total: 2, error: 2 })
  })

  test('a task that times out records status timeout, and its loop stops', async () => {
    const run = await runBenchmark(['tasks/omnizon/omnizon-1.task.ts'], {
      ...FAULT_AGENTS,
      AGENTEST_AGENT: 'hang',
      // Long enough for the sandbox to open on a busy machine: the timeout must land in the agent's loop.
      AGENTEST_TASK_TIMEOUT_MS: '10000',
      AGENTEST_MAX_STEPS: '1000',
    })
    expect(run.code).toBe(1)
    const [result] = run.results
    expect(result?.status).toBe('timeout')
    expect(result?.agent_status).toBe('timeout')
    expect(result?.error?.message).toMatch(/timed out in 10000ms/)
    // Steps stopped with the timeout: none was recorded after the task finished.
    const finished = Date.parse(result!.finished_at)
    expect(result!.trajectory.every((s) => s.timestamp <= finished)).toBe(true)
    expect(result!.trajectory.length).toBeLessThan(80)
  })

  test("loading a blocklisted URL (the grader's /finish) ends the task with a recorded error", async () => {
    const run = await runBenchmark(['tasks/omnizon/omnizon-1.task.ts'], { ...FAULT_AGENTS, AGENTEST_AGENT: 'peek' })
    const [result] = run.results
    expect(result?.status).toBe('error')
    expect(result?.error?.kind).toBe('blocked_url')
    expect(result?.error?.message).toMatch(/blocked URL: http:\/\/127\.0\.0\.1:\d+\/finish/)
  })

  test('max_steps stops the loop', async () => {
    const run = await runBenchmark(['tasks/omnizon/omnizon-1.task.ts'], {
      ...FAULT_AGENTS,
      AGENTEST_AGENT: 'wander',
      AGENTEST_MAX_STEPS: '3',
    })
    const [result] = run.results
    expect(result?.agent_status).toBe('max_steps')
    expect(result?.status).toBe('failed')
    expect(result?.max_steps).toBe(3)
    expect(result?.trajectory).toHaveLength(3)
    expect(result?.trajectory[0]?.thought).toBe('looking further down')
  })
})
