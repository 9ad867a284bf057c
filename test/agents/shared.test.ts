import { parse } from 'yaml'
import { describe, expect, test } from 'vitest'
import { agentYaml, redact } from '../../src/secrets/redact.ts'
import { ScreenScale } from '../../src/agents/shared/image.ts'
import { resolveSettings } from '../../src/agents/shared/settings.ts'
import { AgentConfig } from '../../src/schema/config.ts'

describe('shared settings of the model agents', () => {
  test('the record keeps the agent config as YAML, secrets redacted', () => {
    const config = AgentConfig.parse({
      name: 'openai-chat',
      model: 'qwen2.5-vl',
      base_url: 'https://user:hunter2@llm.internal/v1',
      api_key_env: 'MY_KEY',
      options: {
        temperature: 0,
        max_output_tokens: 500,
        api_key: 'sk-inline',
        access_token: 'tok',
        headers: { Authorization: 'Bearer abc' },
        note: 'key is sk-env-123456',
      },
    })
    const yaml = agentYaml(config, { MY_KEY: 'sk-env-123456' })
    expect(parse(yaml)).toEqual({
      name: 'openai-chat',
      model: 'qwen2.5-vl',
      base_url: 'https://[redacted]@llm.internal/v1',
      api_key_env: 'MY_KEY',
      options: {
        temperature: 0,
        max_output_tokens: 500,
        api_key: '[redacted]',
        access_token: '[redacted]',
        headers: { Authorization: '[redacted]' },
        note: 'key is [redacted]',
      },
    })
  })

  test('redact removes the key and any bearer token', () => {
    expect(redact('key sk-abc-123 and Bearer xyz.abcdefghij', ['sk-abc-123'])).toBe('key [redacted] and Bearer [redacted]')
  })

  test('the base URL comes from the config, else OPENAI_BASE_URL; the key from api_key_env', () => {
    const options = { timeout_ms: 1000, retries: 0 }
    const config = AgentConfig.parse({ name: 'openai-cua', api_key_env: 'K' })
    expect(resolveSettings('openai-cua', config, options, 'computer-use-preview', { K: 'sk-1', OPENAI_BASE_URL: 'https://env.example/v1' })).toEqual({
      model: 'computer-use-preview',
      baseURL: 'https://env.example/v1',
      apiKey: 'sk-1',
      timeoutMs: 1000,
      retries: 0,
    })
    const configured = AgentConfig.parse({ name: 'openai-cua', base_url: 'https://cfg.example/v1', model: 'm' })
    expect(resolveSettings('x', configured, options, null, { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'https://env.example/v1' }).baseURL).toBe('https://cfg.example/v1')
  })

  test('screen scaling fits the image and maps coordinates back inside the screen', () => {
    const scale = new ScreenScale({ width: 1280, height: 800 }, { width: 1024, height: 1024 })
    expect(scale.image).toEqual({ width: 1024, height: 640 })
    expect(scale.toScreen({ type: 'click', x: 512, y: 639, button: 'left' })).toEqual({ type: 'click', x: 640, y: 799, button: 'left' })
    expect(scale.toScreen({ type: 'drag', path: [{ x: 0, y: 0 }, { x: 2000, y: 10 }] })).toEqual({
      type: 'drag',
      path: [{ x: 0, y: 0 }, { x: 1279, y: 13 }],
    })
    expect(new ScreenScale({ width: 1280, height: 800 }, null).factor).toBe(1)
  })
})
