import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { checkCommandAgent, runCommandCheck, type CommandCheck } from '../../src/agent-check/command-conformance.ts'

/**
 * The conformance check of command agents (`npm run agent:check -- --command "..."`): the example
 * programs pass every check; broken programs fail, each check with a one-line reason.
 */
const BROKEN = 'test/data/command-agents/broken.py'
const NAMES = ['starts', 'reads the task', 'takes an action', 'calls finish', 'stops when cancelled', 'no key in its output']

const verdicts = (checks: CommandCheck[]) => Object.fromEntries(checks.map((c) => [c.name, c.passed]))

describe('agent:check of a command agent', { timeout: 120_000 }, () => {
  test.each([
    ['http-python', ['python3', 'fixtures/agents/http-python/agent.py']],
    ['mcp-node', ['node', 'fixtures/agents/mcp-node/agent.mjs']],
  ])('the %s example passes every check', async (_name, command) => {
    const dir = mkdtempSync(join(tmpdir(), 'agentest-command-check-'))
    const checks = await checkCommandAgent({ command, dir })
    expect(checks.map((c) => c.name)).toEqual(NAMES)
    for (const check of checks) expect(check.passed, `${check.name}: ${check.detail}`).toBe(true)
    const byName = Object.fromEntries(checks.map((c) => [c.name, c.detail]))
    expect(byName['takes an action']).toBe('step 1: move to (40, 40), recorded with the harness\'s screenshot (agent-check/step-001.png)')
    expect(byName['calls finish']).toMatch(/^it called finish \d+\.\d s after it started, with the answer "done", then exited with code 0$/)
    expect(byName['stops when cancelled']).toMatch(/^it stopped \d\.\d s after SIGTERM \(it was killed by SIGTERM\), with nothing of it left running$/)
    expect(byName['no key in its output']).toMatch(/none with the key; the key went to the model in its Authorization header$/)
    // The checked task is recorded as a run's would be: the step's screenshot and the program's output.
    expect(existsSync(join(dir, 'agent-check/step-001.png'))).toBe(true)
    expect(readFileSync(join(dir, 'agent-check/agent.log'), 'utf8')).toMatch(/^out\| finished: "done"$/m)
  })

  test('a program that fails at once fails "starts" with one line, and the command line says so', async () => {
    let printed = ''
    const code = await runCommandCheck(`python3 ${BROKEN} crash`, (text) => (printed += text))
    expect(code).toBe(1)
    const lines = printed.trimEnd().split('\n')
    expect(lines).toEqual([
      `agent:check python3 ${BROKEN} crash (a command agent)`,
      expect.stringMatching(
        /^✗ starts: it exited with code 1 before it called the model or the computer; its last lines: .* \| RuntimeError: cannot reach the model: no route to host$/,
      ),
      expect.stringMatching(/^✓ no key in its output: \d+ line\(s\) of output, none with the key$/),
      `agent:check: python3 ${BROKEN} crash fails 1 of 2 checks: starts`,
    ])
  })

  test('a program that hangs, ignores SIGTERM and prints its key fails those checks, each with one line', async () => {
    const checks = await checkCommandAgent({ command: ['python3', BROKEN, 'hang'], finishTimeoutMs: 3_000 })
    expect(verdicts(checks)).toEqual({
      starts: true,
      'reads the task': true,
      'takes an action': false,
      'calls finish': false,
      'stops when cancelled': false,
      'no key in its output': false,
    })
    const detail = Object.fromEntries(checks.map((c) => [c.name, c.detail]))
    expect(detail['takes an action']).toBe('no action reached the computer')
    // Its last lines are shown, without the key it printed.
    expect(detail['calls finish']).toMatch(/^no finish within 3\.0 s of its start \(POST \/v1\/finish, or the MCP tool finish\); its last lines: .* \| using key \[redacted\]$/)
    expect(detail['stops when cancelled']).toBe('it was still running 1.0 s after SIGTERM (agentest then kills it with SIGKILL, and the task ends as stopped)')
    expect(detail['no key in its output']).toBe('its output printed its key (OPENAI_API_KEY): using key [redacted]')
    for (const check of checks) {
      expect(check.detail).not.toContain('\n')
      expect(check.detail).not.toMatch(/sk-agentest-check-/)
    }
  })
})
