import { describe, expect, test } from 'vitest'
import { loadConfig } from '../../src/config/index.ts'
import { graderEndpoints } from '../../src/grading/grader/endpoints.ts'
import { folderWith, errorOf } from '../support/config-folder.ts'

describe('grader configuration', () => {
  test('no grader by default: judged checks will be unscored', () => {
    const { config } = loadConfig(folderWith(null), {})
    expect(config.grader).toMatchObject({ model: null, base_url: null, api_key_env: 'OPENAI_API_KEY', temperature: 0, retries: 2, max_image_px: 768 })
    expect(graderEndpoints(config.grader, {})).toEqual([])
    expect(config.prices).toEqual({})
  })

  test('the file sets one model or several that vote, each maybe on its own endpoint', () => {
    const yaml = [
      'grader:',
      '  model: [gpt-4.1, {model: local-judge, base_url: "http://127.0.0.1:9000/v1", api_key_env: LOCAL_KEY}, o4-mini]',
      '  base_url: https://api.example.com/v1',
      'prices:',
      '  gpt-4.1: {input: 2, output: 8}',
    ].join('\n')
    const { config } = loadConfig(folderWith(yaml), {})
    expect(graderEndpoints(config.grader, {})).toEqual([
      { model: 'gpt-4.1', baseURL: 'https://api.example.com/v1', apiKeyEnv: 'OPENAI_API_KEY' },
      { model: 'local-judge', baseURL: 'http://127.0.0.1:9000/v1', apiKeyEnv: 'LOCAL_KEY' },
      { model: 'o4-mini', baseURL: 'https://api.example.com/v1', apiKeyEnv: 'OPENAI_API_KEY' },
    ])
    expect(config.prices['gpt-4.1']).toEqual({ input: 2, output: 8 })
  })

  test('AGENTEST_GRADER_MODEL, _BASE_URL and _API_KEY_ENV override the file; commas make a vote', () => {
    const dir = folderWith('grader:\n  model: gpt-4.1\n')
    const env = { AGENTEST_GRADER_MODEL: 'a, b ,c', AGENTEST_GRADER_BASE_URL: 'http://127.0.0.1:8787/v1', AGENTEST_GRADER_API_KEY_ENV: 'JUDGE_KEY' }
    const { config } = loadConfig(dir, env)
    expect(config.grader).toMatchObject({ model: ['a', 'b', 'c'], base_url: 'http://127.0.0.1:8787/v1', api_key_env: 'JUDGE_KEY' })
    expect(loadConfig(dir, { AGENTEST_GRADER_MODEL: 'judge' }).config.grader.model).toBe('judge')
  })

  test('without a base URL the grader uses OPENAI_BASE_URL, like the agents', () => {
    const { config } = loadConfig(folderWith('grader:\n  model: gpt-4.1\n'), {})
    expect(graderEndpoints(config.grader, { OPENAI_BASE_URL: 'http://proxy/v1' })[0]!.baseURL).toBe('http://proxy/v1')
  })

  test('mistakes are one line naming the field', () => {
    expect(errorOf(() => loadConfig(folderWith(null), { AGENTEST_GRADER_BASE_URL: 'not a url' }))).toBe(
      'AGENTEST_GRADER_BASE_URL="not a url": grader.base_url: Invalid URL',
    )
    expect(errorOf(() => loadConfig(folderWith(null), { AGENTEST_GRADER_API_KEY_ENV: 'sk-123' }))).toMatch(
      /^AGENTEST_GRADER_API_KEY_ENV="sk-123": grader.api_key_env: an environment variable name/,
    )
    expect(errorOf(() => loadConfig(folderWith('grader:\n  base_url: http://127.0.0.1:1/v1\n'), {}))).toBe(
      'agentest.config.yaml: grader.model: a grader needs a model (set grader.model or AGENTEST_GRADER_MODEL)',
    )
    expect(errorOf(() => loadConfig(folderWith('grader:\n  modle: x\n'), {}))).toMatch(/^agentest.config.yaml: grader: Unrecognized key: "modle"/)
  })
})
