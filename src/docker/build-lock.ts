import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { isAlive } from './cleanup.ts'

/**
 * One build of an image tag at a time on this machine: runs (or test files) that need the same
 * missing image wait for the first one's build instead of building it again beside it (an
 * image of several GB would take twice the time and disk). A lock left by a dead process is taken over.
 */
export async function withBuildLock<T>(tag: string, build: () => Promise<T>, isDone: () => Promise<boolean>): Promise<T | null> {
  const lock = join(tmpdir(), `agentest-build-${tag.replace(/[^\w.-]+/g, '_')}.lock`)
  for (;;) {
    try {
      mkdirSync(lock)
      writeFileSync(join(lock, 'pid'), String(process.pid))
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      if (!holderAlive(lock)) {
        rmSync(lock, { recursive: true, force: true })
        continue
      }
      await sleep(1000)
      if (await isDone()) return null
    }
  }
  try {
    return await build()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

function holderAlive(lock: string): boolean {
  try {
    return isAlive(Number(readFileSync(join(lock, 'pid'), 'utf8')))
  } catch {
    // Made but not yet written: its maker is alive, unless it died between the two (a while ago).
    const made = statSync(lock, { throwIfNoEntry: false })?.mtimeMs
    return made !== undefined && Date.now() - made < 10_000
  }
}
