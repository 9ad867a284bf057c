import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { stringify } from 'yaml'
import { resolveSettings } from '../../src/agents/shared/settings.ts'
import { loadConfig } from '../../src/config/index.ts'
import { insecureKeyTransport, isLocalHost } from '../../src/secrets/key-transport.ts'
import { createGrader } from '../../src/grading/index.ts'
import type { Evidence } from '../../src/grading/evidence/evidence.ts'
import { AgentConfig, GraderConfig } from '../../src/schema/config.ts'
import { errorOf, folderWith, writeAgentSpec } from '../support/config-folder.ts'

/**
 * An adversary's door: a config (or a variable) that points a model agent or the grader at a
 * plain-HTTP host on someone else's network while the key variable is set. `.invalid` never
 * resolves, so nothing could leave this machine even if the refusal were missing.
 */
const KEY = 'sk-secret-do-not-send-0123456789'
const INVALID = 'http://models.example.invalid/v1'
const WHY = '(without TLS a key may only go to loopback or host.docker.internal)'

describe('where a key may go without TLS', () => {
  test.each([
    ['http://127.0.0.1:8000/v1'],
    ['http://127.9.8.7/v1'],
    ['http://127.1:8000/v1'],
    ['http://localhost:11434/v1'],
    ['http://LOCALHOST/v1'],
    ['http://[::1]:8000/v1'],
    ['http://[::ffff:127.0.0.1]/v1'],
    ['http://host.docker.internal:8787/v1'],
    ['http://0.0.0.0:8787/v1'],
    ['https://models.example.invalid/v1'],
    ['https://api.openai.com/v1'],
  ])('%s is fine', (url) => {
    expect(insecureKeyTransport(url)).toBeNull()
  })

  test.each([
    [INVALID, 'plain http to models.example.invalid'],
    ['http://10.0.0.5:8000/v1', 'plain http to 10.0.0.5:8000'],
    ['http://128.0.0.1/v1', 'plain http to 128.0.0.1'],
    ['http://localhost.example.invalid/v1', 'plain http to localhost.example.invalid'],
    ['http://[::2]/v1', 'plain http to [::2]'],
  ])('%s is not', (url, problem) => {
    expect(insecureKeyTransport(url)).toBe(problem)
  })

  test('null is the SDK default, https://api.openai.com', () => {
    expect(insecureKeyTransport(null)).toBeNull()
    expect(isLocalHost('api.openai.com')).toBe(false)
  })
})

describe('the config loader refuses to send a key over plain HTTP to a third party', () => {
  const agent = { name: 'openai-chat', model: 'some-model', base_url: INVALID }

  test('agent.base_url: one line naming the file, the field, the variable and the way out; never the key', () => {
    const message = errorOf(() => loadConfig(folderWith({ agent }), { OPENAI_API_KEY: KEY }))
    expect(message).toBe(
      `agentest.config.yaml: agent.base_url: refusing to send the key in OPENAI_API_KEY over plain http to models.example.invalid ${WHY}; use https, or set agent.allow_insecure_key: true to send it anyway`,
    )
    expect(message.split('\n')).toHaveLength(1)
    expect(message).not.toContain(KEY)
  })

  test('the key variable the config names is the one checked', () => {
    const dir = folderWith({ agent: { ...agent, name: 'openai-cua', api_key_env: 'MY_KEY' } })
    expect(errorOf(() => loadConfig(dir, { MY_KEY: KEY }))).toMatch(/^agentest\.config\.yaml: agent\.base_url: refusing to send the key in MY_KEY over plain http/)
    // OPENAI_API_KEY is not what this agent sends.
    expect(loadConfig(dir, { OPENAI_API_KEY: KEY }).config.agent.api_key_env).toBe('MY_KEY')
  })

  test('a URL from a variable names the variable', () => {
    const dir = folderWith({ agent: { name: 'openai-chat', model: 'm' } })
    expect(errorOf(() => loadConfig(dir, { OPENAI_API_KEY: KEY, AGENTEST_BASE_URL: INVALID }))).toMatch(/^AGENTEST_BASE_URL: refusing to send the key in OPENAI_API_KEY/)
    expect(errorOf(() => loadConfig(dir, { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: INVALID }))).toMatch(/^OPENAI_BASE_URL: refusing to send the key in OPENAI_API_KEY/)
  })

  test('agent.allow_insecure_key: true lets it through', () => {
    const { config } = loadConfig(folderWith({ agent: { ...agent, allow_insecure_key: true } }), { OPENAI_API_KEY: KEY })
    expect(config.agent.allow_insecure_key).toBe(true)
  })

  test('loopback, the Docker host gateway and https third parties need no opt-in', () => {
    for (const base_url of ['http://127.0.0.1:8000/v1', 'http://localhost:11434/v1', 'http://[::1]:1/v1', 'http://host.docker.internal:8787/v1', 'https://models.example.invalid/v1']) {
      expect(loadConfig(folderWith({ agent: { ...agent, base_url } }), { OPENAI_API_KEY: KEY }).config.agent.base_url).toBe(base_url)
    }
  })

  test('with the key variable unset there is nothing to send, so nothing to refuse', () => {
    expect(loadConfig(folderWith({ agent }), {}).config.agent.base_url).toBe(INVALID)
  })

  test('agents that send no key are not held to it', () => {
    for (const name of ['oracle', 'nop', 'replay']) {
      // replay's options are checked at load: it needs a run to replay.
      const options = name === 'replay' ? { options: { from: 'runs/earlier' } } : {}
      expect(loadConfig(folderWith({ agent: { ...agent, name, ...options } }), { OPENAI_API_KEY: KEY }).config.agent.name).toBe(name)
    }
  })

  test('the grader: its base URL, a model\'s own base URL, the variable that set it; and its opt-in', () => {
    const env = { OPENAI_API_KEY: KEY, JUDGE_KEY: KEY }
    expect(errorOf(() => loadConfig(folderWith({ grader: { model: 'judge', base_url: INVALID } }), env))).toBe(
      `agentest.config.yaml: grader.base_url: refusing to send the key in OPENAI_API_KEY over plain http to models.example.invalid ${WHY}; use https, or set grader.allow_insecure_key: true to send it anyway`,
    )
    const list = { grader: { model: ['gpt-4.1', { model: 'judge', base_url: INVALID, api_key_env: 'JUDGE_KEY' }] } }
    expect(errorOf(() => loadConfig(folderWith(list), env))).toMatch(/^agentest\.config\.yaml: grader\.model\[1\]\.base_url: refusing to send the key in JUDGE_KEY /)
    expect(errorOf(() => loadConfig(folderWith({}), { ...env, AGENTEST_GRADER_MODEL: 'judge', AGENTEST_GRADER_BASE_URL: INVALID }))).toMatch(
      /^AGENTEST_GRADER_BASE_URL: refusing to send the key in OPENAI_API_KEY /,
    )
    expect(loadConfig(folderWith({ grader: { model: 'judge', base_url: INVALID, allow_insecure_key: true } }), env).config.grader.allow_insecure_key).toBe(true)
    expect(loadConfig(folderWith({ grader: { model: 'judge', base_url: 'http://127.0.0.1:9/v1' } }), env).config.grader.model).toBe('judge')
    // No grader model: no grader call, no key sent (OPENAI_BASE_URL alone does not make one).
    expect(loadConfig(folderWith({}), { ...env, OPENAI_BASE_URL: INVALID }).config.grader.model).toBeNull()
  })

  test('a packaged agent whose spec takes the key is told the same base URL: refused too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentest-keys-image-'))
    writeAgentSpec(dir, 'demo', ['OPENAI_API_KEY'])
    writeFileSync(
      join(dir, 'agentest.config.yaml'),
      stringify({ agent: { name: 'image', spec: 'demo', base_url: INVALID }, agent_images: { folders: ['agents'], allow_secrets: ['OPENAI_API_KEY'] } }),
    )
    expect(errorOf(() => loadConfig(dir, { OPENAI_API_KEY: KEY }))).toMatch(/^agentest\.config\.yaml: agent\.base_url: refusing to send the key in OPENAI_API_KEY over plain http to models\.example\.invalid/)
    expect(loadConfig(dir, {}).agentImage?.ref).toBe('demo:1.0.0')
  })
})

describe('where the client is made, the same refusal (defence in depth)', () => {
  const options = { timeout_ms: 1000, retries: 0 }
  afterEach(() => vi.unstubAllGlobals())

  test('resolveSettings refuses before any client exists', () => {
    const config = AgentConfig.parse({ name: 'openai-chat', model: 'm', base_url: INVALID })
    expect(() => resolveSettings('openai-chat', config, options, null, { OPENAI_API_KEY: KEY })).toThrow(
      `agent.base_url: refusing to send the key in OPENAI_API_KEY over plain http to models.example.invalid ${WHY}; use https, or set agent.allow_insecure_key: true to send it anyway`,
    )
    const fromEnv = AgentConfig.parse({ name: 'openai-chat', model: 'm' })
    expect(() => resolveSettings('openai-chat', fromEnv, options, null, { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: INVALID })).toThrow(/^OPENAI_BASE_URL: refusing/)
  })

  test('resolveSettings: the opt-in, loopback and https go through', () => {
    const allowed = AgentConfig.parse({ name: 'openai-chat', model: 'm', base_url: INVALID, allow_insecure_key: true })
    expect(resolveSettings('openai-chat', allowed, options, null, { OPENAI_API_KEY: KEY })).toMatchObject({ baseURL: INVALID, apiKey: KEY })
    for (const base_url of ['http://127.0.0.1:8000/v1', 'https://models.example.invalid/v1']) {
      expect(resolveSettings('openai-chat', AgentConfig.parse({ name: 'openai-chat', model: 'm', base_url }), options, null, { OPENAI_API_KEY: KEY }).baseURL).toBe(base_url)
    }
  })

  test('the grader never calls an insecure endpoint: the check is unscored with the reason, and no request is made', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ error: { message: 'no' } }), { status: 400, headers: { 'content-type': 'application/json' } }))
    vi.stubGlobal('fetch', fetch)
    const evidence: Evidence = {
      goal: 'Say hello.',
      answer: () => 'hello',
      finalScreenshot: async () => null,
      steps: () => [],
      commandOutput: async () => null,
    }
    const check = { type: 'returned_result' as const, value: 'says hello' }
    const refused = createGrader(GraderConfig.parse({ model: 'judge', base_url: INVALID, retries: 0 }), { OPENAI_API_KEY: KEY })!
    const judgement = await refused.judge(check, evidence)
    expect(judgement.score).toBe(-1)
    expect(judgement.votes[0]?.error).toBe(
      `grader.base_url: refusing to send the key in OPENAI_API_KEY over plain http to models.example.invalid ${WHY}; use https, or set grader.allow_insecure_key: true to send it anyway`,
    )
    expect(fetch).not.toHaveBeenCalled()

    // The same grader with the opt-in does send it: the spy above would have seen the call.
    const allowed = createGrader(GraderConfig.parse({ model: 'judge', base_url: INVALID, retries: 0, allow_insecure_key: true }), { OPENAI_API_KEY: KEY })!
    await allowed.judge(check, evidence)
    expect(fetch).toHaveBeenCalled()
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
    expect(String(url)).toBe(`${INVALID}/chat/completions`)
    expect(new Headers(init.headers).get('authorization')).toBe(`Bearer ${KEY}`)
  })
})
