import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '../..')

/**
 * Runs an ES module snippet in a fresh Node with tsx's loader, from the repository's root, and
 * returns what it printed, trimmed: for what a framework worker cannot show, having loaded the
 * modules under test already (Playwright, dockerode) or read its environment once.
 */
export function inFreshNode(code: string, env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, env, encoding: 'utf8' }).trim()
}
