import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadConfig } from '../../src/config/index.ts'
import { folderWith, errorOf } from '../support/config-folder.ts'

describe('loadConfig', () => {
  test('defaults to the oracle agent when there is no file', () => {
    const { config, file } = loadConfig(folderWith(null), {})
    expect(file).toBeNull()
    expect(config.agent.name).toBe('oracle')
    expect(config.browser.viewport).toEqual({ width: 1280, height: 800 })
    expect(config.run.results_dir).toBe('runs')
  })

  test('reads the YAML file', () => {
    const dir = folderWith('agent:\n  name: nop\n  model: gpt-test\nmax_steps: 7\nrun:\n  name: nightly\n')
    const { config } = loadConfig(dir, {})
    expect(config.agent).toMatchObject({ name: 'nop', model: 'gpt-test' })
    expect(config.max_steps).toBe(7)
    expect(config.run.name).toBe('nightly')
  })

  test('AGENTEST_* variables override the file', () => {
    const dir = folderWith('agent:\n  name: nop\n')
    const { config } = loadConfig(dir, {
      AGENTEST_AGENT: 'oracle',
      AGENTEST_MODEL: 'm-1',
      AGENTEST_BASE_URL: 'http://127.0.0.1:9/v1',
      AGENTEST_MAX_STEPS: '12',
      AGENTEST_RUN_NAME: 'smoke',
      AGENTEST_RESULTS_DIR: 'out',
      AGENTEST_STEP_SCREENSHOTS: 'false',
    })
    expect(config.agent).toMatchObject({ name: 'oracle', model: 'm-1', base_url: 'http://127.0.0.1:9/v1' })
    expect(config.max_steps).toBe(12)
    expect(config.run).toMatchObject({ name: 'smoke', results_dir: 'out', step_screenshots: false })
  })

  test("Claude's agent reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL unless told otherwise; its options are checked at load", () => {
    const { config } = loadConfig(folderWith(null), { AGENTEST_AGENT: 'anthropic-cu' })
    expect(config.agent.api_key_env).toBe('ANTHROPIC_API_KEY')
    const named = loadConfig(folderWith('agent:\n  name: anthropic-cu\n  api_key_env: CLAUDE_KEY\n'), {})
    expect(named.config.agent.api_key_env).toBe('CLAUDE_KEY')
    expect(loadConfig(folderWith('agent:\n  name: openai-cua\n'), {}).config.agent.api_key_env).toBe('OPENAI_API_KEY')
    // The key goes to ANTHROPIC_BASE_URL; over plain HTTP to a third party that is refused before anything starts.
    const env = { AGENTEST_AGENT: 'anthropic-cu', ANTHROPIC_API_KEY: 'sk-ant-x', ANTHROPIC_BASE_URL: 'http://claude-proxy.example:8080' }
    expect(errorOf(() => loadConfig(folderWith(null), env))).toMatch(/ANTHROPIC_BASE_URL/)
    expect(errorOf(() => loadConfig(folderWith('agent:\n  name: anthropic-cu\n  options:\n    tool_verison: computer_20250124\n'), {}))).toMatch(
      /agent\.options\.tool_verison: not an option of anthropic-cu; did you mean "tool_version"\?/,
    )
  })

  test('malformed YAML names the file, line and column', () => {
    const message = errorOf(() => loadConfig(folderWith('agent:\n  name: [oracle\n'), {}))
    expect(message).toMatch(/^agentest\.config\.yaml:\d+:\d+: malformed YAML/)
    expect(message.split('\n')).toHaveLength(1)
  })

  test('a field of the wrong type names the file and the field', () => {
    const message = errorOf(() => loadConfig(folderWith('max_steps: lots\n'), {}))
    expect(message).toMatch(/^agentest\.config\.yaml: max_steps: /)
  })

  test('an unknown field is refused by name', () => {
    const message = errorOf(() => loadConfig(folderWith('agent:\n  nmae: oracle\n'), {}))
    expect(message).toMatch(/^agentest\.config\.yaml: agent: .*nmae/)
  })

  test("a built-in agent's options are checked when the config loads, with a did-you-mean", () => {
    const chat = 'agent:\n  name: openai-chat\n  options:\n    temprature: 0.2\n'
    expect(errorOf(() => loadConfig(folderWith(chat), {}))).toBe('agentest.config.yaml: agent.options.temprature: not an option of openai-chat; did you mean "temperature"?')
    const cua = 'agent:\n  name: openai-cua\n  options:\n    safety_checks: sometimes\n'
    expect(errorOf(() => loadConfig(folderWith(cua), {}))).toMatch(/^agentest\.config\.yaml: agent\.options\.safety_checks: .*"acknowledge"\|"stop"/)
    // Options for another agent than the one AGENTEST_AGENT picks: the line says which agent judged them.
    expect(errorOf(() => loadConfig(folderWith(cua.replace('sometimes', 'stop')), { AGENTEST_AGENT: 'openai-chat' }))).toBe(
      'agentest.config.yaml: agent.options.safety_checks: not an option of openai-chat (AGENTEST_AGENT=openai-chat)',
    )
    expect(errorOf(() => loadConfig(folderWith('agent:\n  name: replay\n'), {}))).toMatch(/^agentest\.config\.yaml: agent\.options\.from: /)
    // The harness's own agents read no options: a model agent's config still runs its nop baseline.
    expect(loadConfig(folderWith(cua.replace('sometimes', 'stop')), { AGENTEST_AGENT: 'nop' }).config.agent.name).toBe('nop')
  })

  test('an unknown agent lists the known ones', () => {
    expect(errorOf(() => loadConfig(folderWith(null), { AGENTEST_AGENT: 'gpt-9' }))).toBe(
      'AGENTEST_AGENT: unknown agent "gpt-9" (known: oracle, nop, near-miss, alternative, openai-cua, openai-chat, anthropic-cu, replay, image, command)',
    )
    expect(errorOf(() => loadConfig(folderWith('agent: { name: nope }\n'), {}))).toMatch(
      /^agentest\.config\.yaml: agent\.name: unknown agent "nope"/,
    )
  })

  test('a bad environment value names the variable', () => {
    expect(errorOf(() => loadConfig(folderWith(null), { AGENTEST_MAX_STEPS: 'ten' }))).toMatch(/^AGENTEST_MAX_STEPS="ten": max_steps: /)
    expect(errorOf(() => loadConfig(folderWith(null), { AGENTEST_BASE_URL: 'not a url' }))).toMatch(/^AGENTEST_BASE_URL=/)
  })

  test('user agents are resolved relative to the config file and must exist', () => {
    const dir = folderWith('agents:\n  mine: ./agents/mine.ts\n')
    expect(errorOf(() => loadConfig(dir, {}))).toBe('agentest.config.yaml: agents.mine: no such module: ./agents/mine.ts')
    writeFileSync(join(dir, 'mine.ts'), 'export default {}')
    writeFileSync(join(dir, 'agentest.config.yaml'), 'agent: { name: mine }\nagents:\n  mine: ./mine.ts\n')
    expect(loadConfig(dir, {}).agentModules).toEqual({ mine: join(dir, 'mine.ts') })
  })

  test('a command agent is declared by name under agents:, its folder the config file\'s; its options are checked', () => {
    const dir = folderWith('agent: { name: my-py }\nagents:\n  my-py: { command: [python3, agent.py], settings: { fast: true } }\n')
    const loaded = loadConfig(dir, {})
    expect(loaded.agentCommands).toEqual({ 'my-py': { command: ['python3', 'agent.py'], pass_env: [], cwd: dir, exit_grace_ms: 5000, cdp: false, settings: { fast: true } } })
    expect(loaded.agentModules).toEqual({})
    writeFileSync(join(dir, 'agentest.config.yaml'), 'agents:\n  my-py: { command: [] }\n')
    expect(errorOf(() => loadConfig(dir, {}))).toMatch(/^agentest\.config\.yaml: agents\.my-py/)
  })

  test('the command agent takes its program from AGENTEST_AGENT_COMMAND, and refuses a run without one', () => {
    const dir = folderWith(null)
    const loaded = loadConfig(dir, { AGENTEST_AGENT: 'command', AGENTEST_AGENT_COMMAND: 'python3  agents/a.py --fast' })
    expect(loaded.config.agent.options).toMatchObject({ command: ['python3', 'agents/a.py', '--fast'] })
    expect(errorOf(() => loadConfig(dir, { AGENTEST_AGENT: 'command' }))).toMatch(/agent\.options.*command/)
  })
})

describe('sealed-run settings', () => {
  test('by default no key goes over plain HTTP to a third party and no host variable goes into a packaged agent', () => {
    const { config } = loadConfig(folderWith(null), {})
    expect(config.agent.allow_insecure_key).toBeUndefined()
    expect(config.grader.allow_insecure_key).toBeUndefined()
    expect(config.agent_images.allow_secrets).toEqual([])
  })

  test('the opt-ins are read from the file and checked like any field', () => {
    const dir = folderWith('agent:\n  allow_insecure_key: true\ngrader:\n  allow_insecure_key: false\nagent_images:\n  allow_secrets: [OPENAI_API_KEY]\n')
    const { config } = loadConfig(dir, {})
    expect(config.agent.allow_insecure_key).toBe(true)
    expect(config.grader.allow_insecure_key).toBe(false)
    expect(config.agent_images.allow_secrets).toEqual(['OPENAI_API_KEY'])
    expect(errorOf(() => loadConfig(folderWith('agent:\n  allow_insecure_key: yes please\n'), {}))).toMatch(/^agentest\.config\.yaml: agent\.allow_insecure_key: /)
    expect(errorOf(() => loadConfig(folderWith('agent_images:\n  allow_secrets: ["my key"]\n'), {}))).toBe(
      'agentest.config.yaml: agent_images.allow_secrets[0]: an environment variable name',
    )
  })

  test('the project\'s own config lets the example agents have OPENAI_API_KEY, and nothing else', () => {
    const { config } = loadConfig(join(import.meta.dirname, '../..'), {})
    expect(config.agent_images.allow_secrets).toEqual(['OPENAI_API_KEY'])
  })
})
