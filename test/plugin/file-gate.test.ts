import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import { FileGate } from '../../plugin/runner/file-gate.ts'

describe("the runner's file gate", () => {
  test('files wait for the last to be queued, then run in order, at most the limit at once; the last returns when all have ended', async () => {
    const gate = new FileGate(2)
    const log: string[] = []
    let running = 0
    let most = 0
    const file = (name: string, ms: number) => async () => {
      log.push(`start ${name}`)
      most = Math.max(most, ++running)
      await sleep(ms)
      running--
      log.push(`end ${name}`)
    }
    await gate.add(file('a', 50), false)
    await gate.add(file('b', 10), false)
    expect(log).toEqual([])
    expect(gate.pending).toBe(2)
    await gate.add(file('c', 10), true)
    expect(gate.pending).toBe(0)
    expect(most).toBe(2)
    expect(log.slice(0, 2)).toEqual(['start a', 'start b'])
    expect(log.indexOf('start c')).toBeGreaterThan(log.indexOf('end b'))
    expect(log.filter((l) => l.startsWith('end')).sort()).toEqual(['end a', 'end b', 'end c'])
  })

  test("a file that throws ends its own run only", async () => {
    const gate = new FileGate(3)
    const ended: string[] = []
    await gate.add(async () => {
      throw new Error('collected badly')
    }, false)
    await gate.add(async () => void ended.push('second'), true)
    expect(ended).toEqual(['second'])
  })
})
