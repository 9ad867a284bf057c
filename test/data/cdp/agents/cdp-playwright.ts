import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { defineAgent } from '../../../../src/index.ts'

const PROGRAM = resolve(import.meta.dirname, '../../../../fixtures/agents/cdp-playwright/agent.mjs')

/**
 * Runs fixtures/agents/cdp-playwright/agent.mjs, a program that drives the task's browser itself
 * over CDP, as the `command` agent would: its own process, the task in its environment
 * (AGENTEST_CDP_URL from context.cdpUrl, AGENTEST_GOAL). Its answer is the JSON of its last line.
 */
export default defineAgent({
  name: 'cdp-playwright',
  async run({ task, cdpUrl, signal }) {
    if (!cdpUrl) throw new Error('no cdpUrl: the config must set agent.options.cdp: true')
    const child = spawn(process.execPath, [PROGRAM], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', AGENTEST_CDP_URL: cdpUrl, AGENTEST_GOAL: task.goal },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const onAbort = () => child.kill('SIGKILL')
    signal.addEventListener('abort', onAbort, { once: true })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((done) => child.on('close', done))
    signal.removeEventListener('abort', onAbort)
    if (code !== 0) throw new Error(`agent.mjs exited with ${code}: ${(stderr || stdout).trim().split('\n').slice(-5).join(' | ')}`)
    const last = stdout.trim().split('\n').at(-1) ?? '{}'
    return { answer: (JSON.parse(last) as { answer?: string | null }).answer ?? null }
  },
})
