import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { ResolvedRun } from '../schema/config.ts'
import { recordKey, type TestCase } from '../schema/task.ts'

/** agentest's own version: the harness shapes what an agent sees, so an upgrade starts afresh. */
export const AGENTEST_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version

/**
 * What makes two runs of a task interchangeable (REAL's cache key, plus settings): the task id
 * and variant, the agent, its model, max_steps, and a hash of the agent's settings. A user
 * agent's module, a packaged agent's spec and agentest's version are part of the settings, so
 * changing them counts. The key variable's name and the grader are not: re-grading is what a
 * cache hit is for.
 */
export function cacheKey(testCase: TestCase, run: ResolvedRun, agentestVersion = AGENTEST_VERSION): string {
  const { agent } = run.config
  const settings = {
    base_url: agent.base_url,
    options: agent.options,
    spec: run.agent_image ? { ref: run.agent_image.ref, spec: run.agent_image.spec } : null,
    module: agentModuleHash(agent.name, run.agent_modules),
    agentest: agentestVersion,
  }
  const parts = {
    task: recordKey(testCase),
    agent: agent.name,
    model: agent.model,
    max_steps: run.config.max_steps ?? testCase.max_steps,
    settings: sha256(stableJson(settings)).slice(0, 16),
  }
  return `${parts.task}|${parts.agent}|${parts.model ?? '-'}|${parts.max_steps}|${parts.settings}`
}

function agentModuleHash(name: string, modules: Record<string, string>): string | null {
  const file = modules[name]
  if (!file) return null
  try {
    return sha256(readFileSync(file, 'utf8'))
  } catch {
    return null
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** JSON with object keys sorted, so the hash does not depend on the order settings were written in. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  )
}
