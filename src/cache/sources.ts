import { relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** agentest's own folder (this file is src/cache/sources.ts); the tests point the key at a copy. */
export const AGENTEST_ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * What defines each built-in agent's behaviour, relative to agentest's folder. The model agents
 * share src/agents/shared; the image agent is its runner plus the spec and image code.
 */
export const BUILTIN_AGENT_SOURCES: Readonly<Record<string, readonly string[]>> = {
  oracle: ['src/agents/builtin.ts'],
  nop: ['src/agents/builtin.ts'],
  'near-miss': ['src/agents/builtin.ts'],
  alternative: ['src/agents/builtin.ts'],
  'openai-cua': ['src/agents/openai-cua', 'src/agents/shared'],
  'openai-chat': ['src/agents/openai-chat', 'src/agents/shared'],
  'anthropic-cu': ['src/agents/anthropic-cu', 'src/agents/shared'],
  replay: ['src/agents/replay', 'src/agents/shared'],
  image: ['src/agent-images'],
  command: ['src/agents/command'],
}

/**
 * The harness: what shapes a run for every agent (the library, the plugin, the web clones and
 * sandbox images tasks run against).
 */
export const HARNESS_SOURCES = ['src', 'plugin', 'fixtures/apps', 'fixtures/images'] as const

/**
 * Sources that only one agent runs are left out of the harness, so editing one agent re-keys its
 * own results, not every agent's. src/agents/shared stays in: the harness uses it too (redaction).
 */
export const AGENT_ONLY_SOURCES = ['src/agents/builtin.ts', 'src/agents/openai-cua', 'src/agents/openai-chat', 'src/agents/anthropic-cu', 'src/agents/replay', 'src/agent-images'] as const

/** Whether the harness hash already counts this file (so a task's or user agent's graph need not follow it). */
export function isHarnessFile(file: string, root: string = AGENTEST_ROOT): boolean {
  const path = relative(root, file).split(sep).join('/')
  const under = (entry: string) => path === entry || path.startsWith(`${entry}/`)
  return HARNESS_SOURCES.some(under) && !AGENT_ONLY_SOURCES.some(under)
}
