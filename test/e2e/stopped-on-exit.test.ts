import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { freePort } from '../../src/environments/command.ts'
import { ROOT, VITEST } from './run-benchmark.ts'

/** Processes whose environment holds this exact variable: the run's own, not another test's. */
function processesWith(variable: string): Array<{ pid: number; cmdline: string }> {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).flatMap((name) => {
    try {
      const environ = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0')
      if (!environ.includes(variable)) return []
      return [{ pid: Number(name), cmdline: readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').trim() }]
    } catch {
      return [] // gone meanwhile
    }
  })
}

const isInbox = (p: { cmdline: string }) => p.cmdline.includes('fixtures/apps/inbox/main.ts')

/**
* The Vitest UI and watch mode (a terminal is a TTY: --watch says so here) are ended by a signal (an editor's stop button, a closed
 * terminal), not by agentest: the environments a run started (here the inbox, a command) must
 * not outlive them.
 */
describe('stopped on every exit', { timeout: 180_000 }, () => {
  test.each([
    ['the Vitest UI', async () => ['--ui', '--watch', '--open=false', `--api.port=${await freePort()}`]],
    ['watch mode', async () => ['--watch']],
  ])('%s ended with SIGTERM leaves no process of the run\'s environments', async (_mode, flags) => {
    const results = mkdtempSync(join(tmpdir(), 'agentest-exit-'))
    const marker = `AGENTEST_RESULTS_DIR=${results}`
    const child = spawn(process.execPath, [VITEST, ...(await flags()), '--project', 'benchmark', 'tasks/inbox/inbox-1.task.ts'], {
      cwd: ROOT,
      env: { ...process.env, CI: '', NO_COLOR: '1', AGENTEST_AGENT: 'nop', AGENTEST_RESULTS_DIR: results },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise((done) => child.once('exit', done))
    try {
      await expect.poll(() => output.includes('agentest summary'), { timeout: 120_000, interval: 300 }).toBe(true)
      expect(processesWith(marker).filter(isInbox).length, 'the inbox runs while the UI is open').toBeGreaterThan(0)
    } finally {
      child.kill('SIGTERM')
      await exited
    }
    await expect.poll(() => processesWith(marker).filter(isInbox), { timeout: 15_000, interval: 500 }).toEqual([])
  })
})
