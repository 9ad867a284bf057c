import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import { withBuildLock } from '../../src/docker/build-lock.ts'

describe('one build of an image tag at a time', () => {
  test('a second build of the same tag waits, and does not build once the first has made it', async () => {
    const tag = `agentest-lock-test:${process.pid}-a`
    let built = 0
    let done = false
    const build = async () => {
      built++
      await sleep(1500)
      done = true
      return 'built'
    }
    const [first, second] = await Promise.all([withBuildLock(tag, build, async () => done), sleep(100).then(() => withBuildLock(tag, build, async () => done))])
    expect([first, second]).toEqual(['built', null])
    expect(built).toBe(1)
  })

  test("a lock left by a dead process is taken over", async () => {
    const tag = `agentest-lock-test:${process.pid}-b`
    const lock = join(tmpdir(), `agentest-build-${tag.replace(/[^\w.-]+/g, '_')}.lock`)
    mkdirSync(lock, { recursive: true })
    writeFileSync(join(lock, 'pid'), '2147483646')
    expect(await withBuildLock(tag, async () => 'built', async () => false)).toBe('built')
  })

  test('a lock whose maker died before writing its pid is taken over once it is old', async () => {
    const tag = `agentest-lock-test:${process.pid}-c`
    const lock = join(tmpdir(), `agentest-build-${tag.replace(/[^\w.-]+/g, '_')}.lock`)
    mkdirSync(lock, { recursive: true })
    const old = new Date(Date.now() - 60_000)
    utimesSync(lock, old, old)
    expect(await withBuildLock(tag, async () => 'built', async () => false)).toBe('built')
  })
})
