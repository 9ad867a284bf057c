import { appendFileSync, cpSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { cacheKey, type KeyContent } from '../../src/cache/key.ts'
import { AGENTEST_ROOT, BUILTIN_AGENT_SOURCES, HARNESS_SOURCES } from '../../src/cache/sources.ts'
import { BUILTIN_AGENTS } from '../../src/agents/names.ts'
import { Config, type ResolvedRun } from '../../src/schema/config.ts'
import { TestCase } from '../../src/schema/task.ts'

const task = TestCase.parse({
  id: 'omnizon-3', name: 'omnizon-3', category: 'omnizon', level: null, task: 'Buy a kettle.', setup_cmd: null, desktop_image: null,
  checks: [], app: 'omnizon', start_path: null, difficulty: null, challenge_type: null, max_steps: 20, variant: null,
})

function resolved(agent: Record<string, unknown>, extra: Partial<ResolvedRun> = {}): ResolvedRun {
  const config = Config.parse({ agent: { name: 'openai-chat', model: 'gpt-4o', ...agent } })
  return { config, run_id: 'r', root: '/', results_path: '/r', config_file: null, agent_modules: {}, agent_commands: {}, agent_image: null, attach_screenshots: false, ...extra }
}

const noFile: KeyContent = { taskFile: null }
const tempDir = (name: string) => mkdtempSync(join(tmpdir(), `agentest-key-${name}-`))

/** A copy of agentest's own sources, to edit without touching the real ones. */
function agentestCopy(): { root: string; edit(file: string): void } {
  const root = tempDir('agentest')
  for (const entry of [...HARNESS_SOURCES, 'src/agent-images']) cpSync(join(AGENTEST_ROOT, entry), join(root, entry), { recursive: true })
  return { root, edit: (file) => appendFileSync(join(root, file), '\n// edited\n') }
}

describe('the cache key', () => {
  const base = cacheKey(task, resolved({}), noFile)

  test('names the task, agent, model, max_steps, settings and code hashes, and is stable', () => {
    expect(base).toMatch(/^omnizon-3\|openai-chat\|gpt-4o\|20\|[0-9a-f]{16}\|task:-\|declared:[0-9a-f]{12}\|agent:[0-9a-f]{12}\|agentest:[0-9a-f]{12}$/)
    expect(cacheKey(task, resolved({}), noFile)).toBe(base)
    // Settings written in another order are the same settings.
    const a = cacheKey(task, resolved({ options: { observation: 'axtree', temperature: 0 } }), noFile)
    const b = cacheKey(task, resolved({ options: { temperature: 0, observation: 'axtree' } }), noFile)
    expect(a).toBe(b)
  })

  test('changes with the variant, model, max_steps, options, base URL and step screenshots off', () => {
    const others = [
      cacheKey({ ...task, variant: 'wrong item' }, resolved({}), noFile),
      cacheKey(task, resolved({ model: 'gpt-4.1' }), noFile),
      cacheKey(task, resolved({}, { config: Config.parse({ agent: { name: 'openai-chat', model: 'gpt-4o' }, max_steps: 5 }) }), noFile),
      cacheKey(task, resolved({ options: { observation: 'axtree' } }), noFile),
      cacheKey(task, resolved({ base_url: 'http://127.0.0.1:8000/v1' }), noFile),
      // A record without step screenshots must not stand in for one with them.
      cacheKey(task, resolved({}, { config: Config.parse({ agent: { name: 'openai-chat', model: 'gpt-4o' }, run: { step_screenshots: false } }) }), noFile),
    ]
    for (const other of others) expect(other).not.toBe(base)
    expect(new Set(others).size).toBe(others.length)
  })

  test("changes with the task's file and the modules it imports, not with its checks", () => {
    const dir = tempDir('task')
    const file = join(dir, 'omnizon-3.task.ts')
    const write = (goal: string, check: string) =>
      writeFileSync(file, `import { agentTest } from 'agentest'\nimport './support.ts'\nconst test = agentTest({ id: 'omnizon-3', app: 'omnizon', goal: '${goal}' })\ntest('t', async ({ run, expect }) => {\n  await run()\n  ${check}\n})\n`)
    writeFileSync(join(dir, 'support.ts'), 'export const seed = 1\n')
    write('Buy a kettle.', 'expect(1).toBe(1)')
    const key = () => cacheKey(task, resolved({}), { taskFile: file })
    const before = key()
    expect(before).toMatch(/\|task:[0-9a-f]{12}\|/)
    write('Buy a kettle.', 'expect(2).toBe(2)')
    expect(key(), 'an edited check re-grades the same result').toBe(before)
    write('Buy two kettles.', 'expect(2).toBe(2)')
    const edited = key()
    expect(edited).not.toBe(before)
    writeFileSync(join(dir, 'support.ts'), 'export const seed = 2\n')
    expect(key()).not.toBe(edited)
  })
})

describe("the agent's code in the key", () => {
  test('every built-in agent has its sources listed, and they exist', () => {
    expect(Object.keys(BUILTIN_AGENT_SOURCES).sort()).toEqual([...BUILTIN_AGENTS].sort())
    for (const entry of Object.values(BUILTIN_AGENT_SOURCES).flat()) expect(existsSync(join(AGENTEST_ROOT, entry)), entry).toBe(true)
  })

  test("an edited built-in agent re-keys its own results only; an edited harness re-keys everyone's", () => {
    const oracle = resolved({ name: 'oracle', model: null })
    const cua = resolved({ name: 'openai-cua', model: 'computer-use-preview' })
    const keys = (root: string) => ({ oracle: cacheKey(task, oracle, { taskFile: null, agentestRoot: root }), cua: cacheKey(task, cua, { taskFile: null, agentestRoot: root }) })

    const pristine = agentestCopy()
    const before = keys(pristine.root)
    // A copy of the same sources is the same code: the key does not depend on where agentest is.
    expect(keys(AGENTEST_ROOT)).toEqual(before)

    const oracleEdited = agentestCopy()
    oracleEdited.edit('src/agents/builtin.ts')
    const afterOracle = keys(oracleEdited.root)
    expect(afterOracle.oracle).not.toBe(before.oracle)
    expect(afterOracle.oracle.replace(/\|agent:\w+/, '')).toBe(before.oracle.replace(/\|agent:\w+/, ''))
    expect(afterOracle.cua).toBe(before.cua)

    const cuaEdited = agentestCopy()
    cuaEdited.edit('src/agents/openai-cua/loop.ts')
    expect(keys(cuaEdited.root).oracle, "openai-cua's code is not the oracle's").toBe(before.oracle)
    expect(keys(cuaEdited.root).cua).not.toBe(before.cua)

    const harnessEdited = agentestCopy()
    harnessEdited.edit('src/computer/computer.ts')
    const afterHarness = keys(harnessEdited.root)
    expect(afterHarness.oracle).not.toBe(before.oracle)
    expect(afterHarness.cua).not.toBe(before.cua)
    expect(afterHarness.oracle.replace(/\|agentest:\w+$/, '')).toBe(before.oracle.replace(/\|agentest:\w+$/, ''))
  })

  test("a user agent's module and the modules it imports count; the key variable's name does not", () => {
    const dir = tempDir('agent')
    const file = join(dir, 'mine.ts')
    writeFileSync(file, `import { decide } from './helper.ts'\nexport default { name: 'mine', run: decide }\n`)
    writeFileSync(join(dir, 'helper.ts'), 'export const decide = async () => ({ answer: null })\n')
    const mine = (extra: Record<string, unknown> = {}) => resolved({ name: 'mine', ...extra }, { agent_modules: { mine: file } })
    const before = cacheKey(task, mine(), noFile)
    expect(cacheKey(task, mine({ api_key_env: 'OTHER_KEY' }), noFile)).toBe(before)
    writeFileSync(join(dir, 'helper.ts'), `export const decide = async () => ({ answer: 'yes' })\n`)
    const helperEdited = cacheKey(task, mine(), noFile)
    expect(helperEdited, 'an edited helper').not.toBe(before)
    writeFileSync(file, `import { decide } from './helper.ts'\nexport default { name: 'mine', run: decide, v: 2 }\n`)
    expect(cacheKey(task, mine(), noFile)).not.toBe(helperEdited)
  })

  test("a command agent's program, named on its command line, counts by content", () => {
    const dir = tempDir('command')
    writeFileSync(join(dir, 'agent.py'), 'print("v1")\n')
    const command = (root: string) => resolved({ name: 'command', model: null, options: { command: ['python3', 'agent.py'] } }, { root })
    const before = cacheKey(task, command(dir), noFile)
    expect(cacheKey(task, command(dir), noFile)).toBe(before)
    writeFileSync(join(dir, 'agent.py'), 'print("v2")\n')
    expect(cacheKey(task, command(dir), noFile), 'an edited program').not.toBe(before)
  })

  test("a packaged agent's image id counts", () => {
    const image = resolved({ name: 'image', model: null, spec: 'mine:1.0.0' })
    const a = cacheKey(task, image, { taskFile: null, agentImageId: 'sha256:aaa' })
    expect(cacheKey(task, image, { taskFile: null, agentImageId: 'sha256:aaa' })).toBe(a)
    expect(cacheKey(task, image, { taskFile: null, agentImageId: 'sha256:bbb' })).not.toBe(a)
    expect(cacheKey(task, image, noFile)).not.toBe(a)
  })
})
