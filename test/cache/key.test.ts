import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { cacheKey } from '../../src/cache/key.ts'
import { Config, type ResolvedRun } from '../../src/schema/config.ts'
import { TestCase } from '../../src/schema/task.ts'

const task = TestCase.parse({
  id: 'omnizon-3', name: 'omnizon-3', category: 'omnizon', level: null, task: 'Buy a kettle.', setup_cmd: null, desktop_image: null,
  checks: [], app: 'omnizon', start_path: null, difficulty: null, challenge_type: null, max_steps: 20, variant: null,
})

function resolved(agent: Record<string, unknown>, extra: Partial<ResolvedRun> = {}): ResolvedRun {
  const config = Config.parse({ agent: { name: 'openai-chat', model: 'gpt-4o', ...agent } })
  return { config, run_id: 'r', root: '/', results_path: '/r', config_file: null, agent_modules: {}, agent_image: null, ...extra }
}

describe('the cache key', () => {
  const base = cacheKey(task, resolved({}))

  test('names the task, agent, model and max_steps, and is stable', () => {
    expect(base).toMatch(/^omnizon-3\|openai-chat\|gpt-4o\|20\|[0-9a-f]{16}$/)
    expect(cacheKey(task, resolved({}))).toBe(base)
    // Settings written in another order are the same settings.
    const a = cacheKey(task, resolved({ options: { observation: 'axtree', temperature: 0 } }))
    const b = cacheKey(task, resolved({ options: { temperature: 0, observation: 'axtree' } }))
    expect(a).toBe(b)
  })

  test('changes with the variant, model, max_steps, options, base URL and agentest version', () => {
    const others = [
      cacheKey({ ...task, variant: 'wrong item' }, resolved({})),
      cacheKey(task, resolved({ model: 'gpt-4.1' })),
      cacheKey(task, resolved({}, { config: Config.parse({ agent: { name: 'openai-chat', model: 'gpt-4o' }, max_steps: 5 }) })),
      cacheKey(task, resolved({ options: { observation: 'axtree' } })),
      cacheKey(task, resolved({ base_url: 'http://127.0.0.1:8000/v1' })),
      cacheKey(task, resolved({}), '999.0.0'),
    ]
    for (const other of others) expect(other).not.toBe(base)
    expect(new Set(others).size).toBe(others.length)
  })

  test("a user agent's source counts; the key variable's name does not", () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentest-key-'))
    const file = join(dir, 'mine.ts')
    writeFileSync(file, 'export default {}\n')
    const mine = (extra: Record<string, unknown> = {}) => resolved({ name: 'mine', ...extra }, { agent_modules: { mine: file } })
    const before = cacheKey(task, mine())
    expect(cacheKey(task, mine({ api_key_env: 'OTHER_KEY' }))).toBe(before)
    writeFileSync(file, 'export default { changed: true }\n')
    expect(cacheKey(task, mine())).not.toBe(before)
  })
})
