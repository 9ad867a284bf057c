import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'

export const ROOT = resolve(import.meta.dirname, '../..')
/**
 * Node's arguments that run a TypeScript script with tsx's loader, as `npm run` does, but without
 * tsx's CLI, which starts the script in a second Node process: ~0.3 CPU-s less a run, and the
 * tests start some ninety. The script's output and exit code are the same.
 */
export const TSX = ['--import', 'tsx']

/** Runs one of scripts/*.ts as `npm run` would, with AGENTEST_* from the caller's env only. */
export async function runScript(script: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AGENTEST_')))
  const child = spawn(process.execPath, [...TSX, join(ROOT, 'scripts', script), ...args], {
    cwd: ROOT,
    env: { ...clean, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise<number | null>((done) => child.on('close', done))
  return { code, stdout, stderr }
}
