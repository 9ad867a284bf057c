import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { describe, expect, test } from 'vitest'
import { stringify } from 'yaml'
import { ROOT, runBenchmark, type BenchmarkRun } from '../e2e/run-benchmark.ts'
import { writeAgentSpec } from '../support/config-folder.ts'

/**
 * The doors of a sealed run, tried the way a user runs a benchmark (`vitest run` in a child
 * process): each is refused at config load, before any app, browser, container or model call
 * starts, with one line on stderr and exit code 1. None of them may print a key's value.
 */
const KEY = 'sk-cli-never-sent-0123456789'
/** Variables from the calling shell must not decide these runs. */
const CLEAN = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: '', AGENTEST_AGENT: '', AGENTEST_BASE_URL: '', AGENTEST_GRADER_MODEL: '', AGENTEST_GRADER_BASE_URL: '' }

function expectRefusedAtLoad(run: BenchmarkRun, line: string | RegExp): void {
  const lines = run.stderr.split('\n').filter((l) => l.trim() !== '' && !l.includes('nodedir') && !l.startsWith('npm warn'))
  expect(lines, run.stderr).toHaveLength(1)
  expect(lines[0]).toMatch(line)
  expect(run.code).toBe(1)
  // Stopped before the run began: no banner, no run folder, nothing written.
  expect(run.stdout).not.toContain('evaluating agent')
  expect(run.runDir).toBeNull()
  expect(run.stdout + run.stderr).not.toContain(KEY)
}

describe('a run that would send a key where it must not stops at config load', { timeout: 120_000 }, () => {
  test('agent.base_url: http://models.example.invalid/v1 with OPENAI_API_KEY set', async () => {
    const run = await runBenchmark(['tasks/omnizon'], { ...CLEAN, AGENTEST_CONFIG: 'test/data/insecure-key.config.yaml' }, undefined, { grader: false })
    expectRefusedAtLoad(
      run,
      'agentest: test/data/insecure-key.config.yaml: agent.base_url: refusing to send the key in OPENAI_API_KEY over plain http to models.example.invalid (without TLS a key may only go to loopback or host.docker.internal); use https, or set agent.allow_insecure_key: true to send it anyway',
    )
  })

  test('a grader at a plain-HTTP third party', async () => {
    const run = await runBenchmark(
      ['tasks/omnizon'],
      { ...CLEAN, AGENTEST_AGENT: 'oracle', AGENTEST_GRADER_MODEL: 'judge', AGENTEST_GRADER_BASE_URL: 'http://models.example.invalid/v1' },
      undefined,
      { grader: false },
    )
    expectRefusedAtLoad(run, /^agentest: AGENTEST_GRADER_BASE_URL: refusing to send the key in OPENAI_API_KEY over plain http to models\.example\.invalid .*grader\.allow_insecure_key: true/)
  })

  test('a packaged agent asking for a host variable the config does not allow', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'agentest-cli-secrets-')))
    writeAgentSpec(dir, 'sneaky', ['AWS_SECRET_ACCESS_KEY'])
    const config = join(dir, 'sealed.config.yaml')
    writeFileSync(config, stringify({ agent: { name: 'image', spec: 'sneaky' }, agent_images: { folders: ['agents'], allow_secrets: ['OPENAI_API_KEY'] } }))
    const run = await runBenchmark(['tasks/desktop'], { ...CLEAN, AGENTEST_CONFIG: config, AWS_SECRET_ACCESS_KEY: KEY }, undefined, { grader: false })
    const spec = relative(ROOT, join(dir, 'agents/sneaky/sneaky.agent.yaml'))
    expectRefusedAtLoad(run, `agentest: ${spec}: spec.secrets[0]: AWS_SECRET_ACCESS_KEY is not allowed by ${relative(ROOT, config)}'s agent_images.allow_secrets`)
  })
})

describe('the run banner', { timeout: 120_000 }, () => {
  test('names each key variable and the host it goes to, never its value', async () => {
    // No task matches: the run stops right after the banner, before any agent or grader call.
    const run = await runBenchmark(
      ['tasks/omnizon', '-t', 'omnizon-99\\b'],
      { ...CLEAN, AGENTEST_AGENT: 'openai-chat', AGENTEST_MODEL: 'm', AGENTEST_BASE_URL: 'http://127.0.0.1:9/v1', AGENTEST_GRADER_MODEL: 'judge' },
      undefined,
      { grader: false },
    )
    expect(run.stdout).toContain('agentest: keys: OPENAI_API_KEY → 127.0.0.1:9 (agent), OPENAI_API_KEY → api.openai.com (grader)\n')
    expect(run.stdout + run.stderr).not.toContain(KEY)
  })
})
