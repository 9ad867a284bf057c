import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { groupListensOn } from './port-owner.ts'
import { waitReady } from './ready.ts'
import type { RunningEnvironment } from './start.ts'

/** A port the OS says is free now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/**
 * A watchdog for a command's process group, outside the run's process: once that process is gone
 * without stopping the group (the Vitest UI or watch mode ended by a signal, a kill -9), the group
 * is stopped too. It ends by itself when the group does, so a reused group id is never touched.
 */
function stopWhenGone(owner: number, group: number): void {
  const watch = 'while kill -0 "$0" 2>/dev/null && kill -0 -"$1" 2>/dev/null; do sleep 1; done; kill -0 -"$1" 2>/dev/null || exit 0; kill -TERM -"$1"; sleep 3; kill -KILL -"$1" 2>/dev/null'
  spawn('/bin/sh', ['-c', watch, String(owner), String(group)], { detached: true, stdio: 'ignore' }).unref()
}

/**
 * Starts an app with its command (`{port}` replaced, PORT set) in a process group of its own,
 * so stopping it stops whatever the command started too.
 */
export async function startCommand(name: string, command: string, options: { port?: number; readyPath: string; timeoutMs: number; cwd: string }): Promise<RunningEnvironment> {
  // A port picked here may be picked by another run at the same moment: the app that lost it is
  // not the one answering, so it is stopped and started again on another.
  for (let attempt = 1; ; attempt++) {
    const started = await startOnce(name, command, { ...options, port: options.port ?? (await freePort()) })
    if (started !== 'port taken') return started
    if (options.port !== undefined || attempt === 3) throw new Error(`the ${name} environment (\`${command}\`) did not start: another process answers on its port`)
  }
}

async function startOnce(name: string, command: string, options: { port: number; readyPath: string; timeoutMs: number; cwd: string }): Promise<RunningEnvironment | 'port taken'> {
  const { port } = options
  const line = command.replaceAll('{port}', String(port))
  const child = spawn('/bin/sh', ['-c', line], { cwd: options.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PORT: String(port) } })
  if (child.pid) stopWhenGone(process.pid, child.pid)
  const said: string[] = []
  const keep = (chunk: Buffer) => {
    said.push(...chunk.toString('utf8').split('\n').filter(Boolean))
    said.splice(0, Math.max(0, said.length - 5))
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  let exited: string | null = null
  child.on('exit', (code, signal) => {
    exited = `exited (${signal ?? `code ${code}`}) before it was ready${said.length ? `; it said: ${said.join(' | ')}` : ''}`
  })
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return
    const gone = new Promise((resolve) => child.once('exit', resolve))
    const kill = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal)
      } catch {
        // Already gone.
      }
    }
    kill('SIGTERM')
    const late = setTimeout(() => kill('SIGKILL'), 3_000)
    await gone
    clearTimeout(late)
  }
  const url = `http://127.0.0.1:${port}`
  try {
    await waitReady(`${url}${options.readyPath}`, options.timeoutMs, () => exited)
  } catch (error) {
    await stop()
    throw new Error(`the ${name} environment (\`${line}\`) did not start: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (child.pid && groupListensOn(child.pid, port) === false) {
    await stop()
    return 'port taken'
  }
  return { url, close: stop }
}
