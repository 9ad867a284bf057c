import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { z } from 'zod'
import { InputError } from '../errors/input-error.ts'

const execFileAsync = promisify(execFile)

/** The project's own Vitest CLI (the version it pins), run with this Node. */
export function vitestBin(root: string): string {
  const pkg = createRequire(join(root, 'package.json')).resolve('vitest/package.json')
  return join(dirname(pkg), (JSON.parse(readFileSync(pkg, 'utf8')) as { bin: { vitest: string } }).bin.vitest)
}

/**
 * For the `vitest run`s agentest starts itself. Vite parses every module of the config it bundles
 * (here the plugin and the reporters: 83 modules) only to warn about what its native loader would
 * not support; without that pass a run's config loads in ~0.29 s instead of ~0.51 s (2 cores).
 */
export const CHILD_RUN_ENV = { VITE_CONFIG_NATIVE_IGNORE_WARNING: '1' } as const

const Listed = z.array(z.object({ name: z.string(), file: z.string().optional() }))
export type ListedTest = z.infer<typeof Listed>[number]

/**
 * The benchmark tests `vitest list` collects for `filters` (file filters, -t, --tags-filter),
 * with `env` on top of this process's (e.g. AGENTEST_AGENT=near-miss lists each near miss).
 */
export async function listBenchmarkTests(root: string, filters: readonly string[], env: Record<string, string> = {}): Promise<ListedTest[]> {
  // Listing runs the benchmark's global setup, which writes a run folder: keep that out of results_dir.
  const scratch = mkdtempSync(join(tmpdir(), 'agentest-list-'))
  try {
    const { stdout } = await execFileAsync(process.execPath, [vitestBin(root), 'list', '--json', '--project', 'benchmark', ...filters], {
      cwd: root,
      env: { ...process.env, ...CHILD_RUN_ENV, ...env, AGENTEST_RESULTS_DIR: scratch, NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    })
    // The plugin's banner comes first; the list is the JSON from the first line that opens an array.
    const start = stdout.search(/^\[/m)
    return Listed.parse(JSON.parse(start < 0 ? '[]' : stdout.slice(start)))
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim()
    if (error instanceof z.ZodError || error instanceof SyntaxError) throw new InputError(`vitest list printed no test list: ${error.message}`)
    const agentest = stderr?.split('\n').filter((line) => line.startsWith('agentest: '))
    // A task file's mistake is the plugin's own line: show just that.
    if (agentest?.length) throw new InputError(agentest.map((line) => line.slice('agentest: '.length)).join('\n'))
    throw new InputError(`vitest list ${filters.join(' ')} failed${stderr ? `:\n${stderr}` : `: ${error instanceof Error ? error.message : String(error)}`}`)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

export interface ChildRun {
  code: number | null
  stdout: string
  stderr: string
}

/** `vitest run --project benchmark <args>` in a child process; resolves when it exits, whatever its code. */
export function runBenchmarkChild(root: string, args: readonly string[], env: Record<string, string>, signal?: AbortSignal): Promise<ChildRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [vitestBin(root), 'run', '--project', 'benchmark', ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      signal,
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', fail)
    child.on('close', (code) => done({ code, stdout, stderr }))
  })
}
