import { readFileSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import type { ResolvedRun } from '../schema/config.ts'
import { recordKey, type TestCase } from '../schema/task.ts'
import { combine, sha256, SHORT } from './hash.ts'
import { moduleGraphHash } from './module-graph.ts'
import { treeHash } from './source-tree.ts'
import { AGENT_ONLY_SOURCES, AGENTEST_ROOT, BUILTIN_AGENT_SOURCES, HARNESS_SOURCES, isHarnessFile } from './sources.ts'

/** The code behind a run, beyond the config: read by the worker when the task starts. */
export interface KeyContent {
  /** The task's file (absolute); null when the task was not declared in one. */
  taskFile: string | null
  /** The packaged agent's image id, when the agent is `image` (see packagedImageId). */
  agentImageId?: string | null
  /** agentest's own folder; the tests point it at a copy. */
  agentestRoot?: string
  /** The image id of a task's own desktop image (a Dockerfile folder or an image by name), when it has one. */
  taskImageId?: string | null
}

/**
 * What makes two runs of a task interchangeable (REAL's cache key, plus settings and code):
 * `task|agent|model|max_steps|settings|task:…|agent:…|agentest:…`. The settings hash covers
 * the agent's options, base URL and a packaged agent's spec; then come hashes of the task's
 * code (its file minus its test bodies, and the local modules it imports), of the agent's code
 * (a built-in's source, a user agent's module graph, a packaged agent's image) and of
 * agentest's own source. The key variable's name, the grader and the checks are not in it:
 * re-grading is what a cache hit is for.
 */
export function cacheKey(testCase: TestCase, run: ResolvedRun, content: KeyContent): string {
  const root = content.agentestRoot ?? AGENTEST_ROOT
  const { agent } = run.config
  const settings = {
    base_url: agent.base_url,
    options: agent.options,
    spec: run.agent_image ? { ref: run.agent_image.ref, spec: run.agent_image.spec } : null,
    // A record without step screenshots must not stand in for one with them (a judge reads them).
    ...(run.config.run.step_screenshots ? {} : { step_screenshots: false }),
  }
  const skip = (file: string) => isHarnessFile(file, root)
  const parts = [
    recordKey(testCase),
    agent.name,
    agent.model ?? '-',
    run.config.max_steps ?? testCase.max_steps,
    sha256(stableJson(settings)).slice(0, 16),
    `task:${short(content.taskFile ? moduleGraphHash(content.taskFile, { declarationOnly: true, skip }) : null)}`,
    // The task as declared, checks aside: a file that reads its tasks from data (OSUniverse's YAML, REAL's JSON) changes them without a code change.
    `declared:${sha256(stableJson(declared(testCase))).slice(0, SHORT)}`,
    `agent:${short(agentCode(run, content.agentImageId ?? null, root, skip))}`,
    `agentest:${short(treeHash(root, HARNESS_SOURCES, AGENT_ONLY_SOURCES))}`,
    // A task's own image is part of what it ran on: a rebuilt image is a different task.
    ...(content.taskImageId ? [`image:${short(content.taskImageId.replace(/^sha256:/, ''))}`] : []),
  ]
  return parts.join('|')
}

/** The code that decides what the agent does; null for an agent registered in code, whose source is unknown. */
function agentCode(run: ResolvedRun, imageId: string | null, root: string, skip: (file: string) => boolean): string | null {
  const { name } = run.config.agent
  const builtin = Object.hasOwn(BUILTIN_AGENT_SOURCES, name) ? BUILTIN_AGENT_SOURCES[name] : undefined
  if (builtin && name === 'image') return combine([treeHash(root, builtin), `image ${imageId ?? 'unknown'}`])
  if (builtin && name === 'command') return combine([treeHash(root, builtin), commandFiles(run.root, run.config.agent.options)])
  const named = run.agent_commands[name]
  if (named) return combine([treeHash(root, BUILTIN_AGENT_SOURCES.command!), commandFiles(run.root, named)])
  if (builtin) return treeHash(root, builtin)
  const module = run.agent_modules[name]
  return module ? moduleGraphHash(module, { skip }) : null
}

/**
 * The files a command agent's command line names (its script, say), by content: editing the
 * program re-keys its results. What the program imports besides is not seen (run.cache: off).
 */
function commandFiles(root: string, options: Record<string, unknown>): string {
  const { command = [], cwd = '.' } = options as { command?: unknown[]; cwd?: string }
  const base = resolve(root, cwd)
  const files = command.filter((arg): arg is string => typeof arg === 'string').map((arg) => resolve(base, arg))
  return combine(files.filter((file) => statSync(file, { throwIfNoEntry: false })?.isFile()).map((file) => `${file}\0${sha256(readFileSync(file))}`))
}

/** What a run depends on in a TestCase: not its checks (a reused result is re-graded), its name or which attempt it is. */
function declared({ checks: _checks, name: _name, variant: _variant, epoch: _epoch, ...rest }: TestCase): Omit<TestCase, 'checks' | 'name' | 'variant' | 'epoch'> {
  return rest
}

function short(hash: string | null): string {
  return hash ? hash.slice(0, SHORT) : '-'
}

/** JSON with object keys sorted, so the hash does not depend on the order settings were written in. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  )
}
