import { describe, expect, test } from 'vitest'
import { keysLine } from '../../plugin/index.ts'
import { AgentImageSpec } from '../../src/schema/agent-image.ts'
import { Config, type ConfigInput } from '../../src/schema/config.ts'

/** The banner's second line: which key variable goes to which host, resolved as the senders resolve it. */
const KEY = 'sk-banner-secret-0123456789'

function line(config: ConfigInput, env: NodeJS.ProcessEnv, secrets: string[] | null = null): string | null {
  const agent_image = secrets
    ? {
        file: '/x/demo.agent.yaml',
        shown: 'agents/demo/demo.agent.yaml',
        ref: 'demo:1.0.0',
        spec: AgentImageSpec.parse({
          apiVersion: 'agentest/v1',
          kind: 'AgentImage',
          metadata: { name: 'demo', version: '1.0.0' },
          spec: { description: 'd', base: 'agentest/desktop', build: {}, secrets, ports: [{ name: 'agent', port: 8000 }], health: { path: '/health' } },
        }),
      }
    : null
  return keysLine({ config: Config.parse(config), agent_image }, env)
}

describe('the keys line of the run banner', () => {
  test('a model agent on loopback and a grader on the default endpoint', () => {
    expect(line({ agent: { name: 'openai-chat', model: 'm', base_url: 'http://127.0.0.1:8000/v1' }, grader: { model: 'gpt-4.1' } }, { OPENAI_API_KEY: KEY })).toBe(
      'agentest: keys: OPENAI_API_KEY → 127.0.0.1:8000 (agent), OPENAI_API_KEY → api.openai.com (grader)',
    )
  })

  test('OPENAI_BASE_URL counts where the config sets none; a variable that is not set says so', () => {
    expect(line({ agent: { name: 'openai-cua', api_key_env: 'CUA_KEY' } }, { OPENAI_BASE_URL: 'https://proxy.example.com/v1' })).toBe(
      'agentest: keys: CUA_KEY (not set) → proxy.example.com (agent)',
    )
  })

  test('graders that vote: one entry per variable and host', () => {
    const grader = { model: ['a', 'b', { model: 'local', base_url: 'http://localhost:9000/v1', api_key_env: 'LOCAL_KEY' }] }
    expect(line({ grader }, { OPENAI_API_KEY: KEY, LOCAL_KEY: 'x' })).toBe(
      'agentest: keys: OPENAI_API_KEY → api.openai.com (grader), LOCAL_KEY → localhost:9000 (grader)',
    )
  })

  test('a packaged agent: its spec\'s secrets go into its container', () => {
    expect(line({ agent: { name: 'image', spec: 'demo', base_url: 'http://127.0.0.1:8787/v1' } }, { OPENAI_API_KEY: KEY, HF_TOKEN: 'y' }, ['OPENAI_API_KEY', 'HF_TOKEN'])).toBe(
      'agentest: keys: OPENAI_API_KEY → the container of demo:1.0.0, HF_TOKEN → the container of demo:1.0.0',
    )
  })

  test('agents and graders that send no key: no line', () => {
    expect(line({ agent: { name: 'oracle', base_url: 'http://models.example.invalid/v1' } }, { OPENAI_API_KEY: KEY })).toBeNull()
    expect(line({ agent: { name: 'replay' } }, { OPENAI_API_KEY: KEY })).toBeNull()
  })

  test('never a value', () => {
    expect(line({ agent: { name: 'openai-chat', model: 'm' }, grader: { model: 'j' } }, { OPENAI_API_KEY: KEY })).not.toContain(KEY)
  })
})
