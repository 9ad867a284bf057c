import { filesHolding as filesUnder } from '../support/files-holding.ts'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { stringify } from 'yaml'
import type { BenchmarkRun } from '../e2e/run-benchmark.ts'

/** The API key of the end-to-end runs: it must reach the server and nothing else. */
export const E2E_KEY = 'sk-agentest-e2e-SECRET-7d1f3a9c'

/** The task files to run: naming files (not -t) keeps Vitest from importing the whole suite. */
export const taskFiles = (...ids: number[]) => ids.map((id) => `tasks/omnizon/omnizon-${id}.task.ts`)

/** Writes a config file selecting the agent and its options; returns the env pointing at it. */
export function agentEnv(agent: { name: string; options?: Record<string, unknown> }, baseUrl: string, extra: Record<string, string> = {}) {
  const file = join(mkdtempSync(join(tmpdir(), 'agentest-agent-config-')), 'agentest.config.yaml')
  writeFileSync(file, stringify({ agent: { name: agent.name, options: agent.options ?? {} } }))
  return {
    AGENTEST_CONFIG: file,
    AGENTEST_BASE_URL: baseUrl,
    AGENTEST_API_KEY_ENV: 'AGENTEST_E2E_KEY',
    AGENTEST_E2E_KEY: E2E_KEY,
    ...extra,
  }
}

/** `grep -rl <key>` over the runs' results dirs: the files that hold the key (none, we hope). */
export function filesHolding(secret: string, runs: BenchmarkRun[]): string[] {
  return filesUnder(secret, [...new Set(runs.flatMap((run) => (run.runDir ? [dirname(run.runDir)] : [])))])
}
