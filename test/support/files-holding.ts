import { execFileSync } from 'node:child_process'

/** The files under the folders that hold `secret` (`grep -rl`): none, we hope. */
export function filesHolding(secret: string, dirs: string[]): string[] {
  try {
    return execFileSync('grep', ['-rl', '--', secret, ...dirs], { encoding: 'utf8' }).trim().split('\n')
  } catch (error) {
    // grep exits 1 when nothing matched.
    if ((error as { status?: number }).status === 1) return []
    throw error
  }
}
