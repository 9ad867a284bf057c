import { describe, expect, test } from 'vitest'
import { loadConfig } from '../../src/config/index.ts'
import { InputError } from '../../src/errors/input-error.ts'
import { registerAppKit } from '../../src/sandbox/browser/app-kit.ts'
import { parseTaskSpec, type SolutionContext } from '../../src/task/spec.ts'
import { adversary } from '../../src/task/variants/adversaries.ts'
import { candidateSource, hedgedAnswer } from '../../src/task/variants/candidates.ts'
import type { AdversaryTask } from '../../src/task/variants/names.ts'
import { NotApplicable } from '../../src/task/variants/not-applicable.ts'
import { errorOf, folderWith } from '../support/config-folder.ts'

const FILE = 'tasks/lodge/lodge-1.task.ts'
const solve = async () => 'The Pine room, $95.'
const question = { id: 'lodge-1', goal: 'Which room is cheapest?', app: 'lodge', challenge_type: 'retrieval' as const, solution: solve }
const task = (over: Partial<AdversaryTask> = {}): AdversaryTask => ({
  goal: 'Which room is cheapest?',
  kind: 'browser',
  challenge_type: 'retrieval',
  start_path: '/',
  tool: null,
  candidates: null,
  environmentCandidates: null,
  ...over,
})
/** A solution context on an app, with its state; nothing else is there. */
const on = (name: string, state: unknown = {}) => ({ app: { name, url: 'http://app.test', state: async () => state } }) as unknown as SolutionContext

function refusal(work: () => unknown): string {
  try {
    work()
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return (error as Error).message
  }
  throw new Error('expected a refusal')
}

describe("the hedger's candidates come from the task's own world", () => {
  test("a task's own list wins; else its environment's list, then its kit's, listed from the app's state", async () => {
    registerAppKit('lodge-unit', { title: 'Lodge', candidates: async (app) => (await app.state<{ rooms: string[] }>()).rooms.map((r) => `${r} room`) })
    const context = on('lodge-unit', { rooms: ['Cedar', 'Maple'] })
    const own = candidateSource(context, task({ candidates: ['Birch room, $140'], environmentCandidates: ['Pine room'] }))
    expect(await own.list()).toEqual(['Birch room, $140'])
    const listed = candidateSource(context, task({ candidates: async ({ app }) => (await app.state<{ rooms: string[] }>()).rooms }))
    expect(await listed.list()).toEqual(['Cedar', 'Maple'])
    const app = candidateSource(context, task({ environmentCandidates: ['Pine room: $95'] }))
    expect(await app.list()).toEqual(['Pine room: $95', 'Cedar room', 'Maple room'])
    // Every candidate a line of its own, then numbers next to the answer's.
    expect(await hedgedAnswer(app, 'Pine, $95')).toBe('Pine, $95\n\nIt could also be one of these:\n- Pine room: $95\n- Cedar room\n- Maple room\n- or maybe 96\n- or maybe 94\n- or maybe 9.5\n- or maybe 950')
  })

  test('an app with none: the hedger is not applicable, before the reference runs, with the reason', async () => {
    let ran = false
    const hedger = adversary('hedger', task(), async () => {
      ran = true
      return 'The Pine room.'
    })
    const error = await hedger(on('bare-app')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NotApplicable)
    expect((error as Error).message).toBe("no candidates to hedge with: neither the task (candidates:) nor the bare-app app (environments.bare-app.candidates, or its kit's candidates) declares any")
    expect(ran).toBe(false)
    // A function that lists none is not a hedge either.
    const empty = candidateSource(on('bare-app'), task({ candidates: async () => [] }))
    await expect(hedgedAnswer(empty, 'x')).rejects.toThrow("the task's candidates are an empty list")
  })

  test('shop near misses need the app to declare orders (and a way to cancel one)', async () => {
    let ran = 0
    const reference = async () => void ran++
    for (const name of ['placed then cancelled', 'duplicate'] as const) {
      const error = await adversary(name, task({ challenge_type: 'action' }), reference)(on('bare-app')).catch((e: unknown) => e)
      expect((error as Error).message).toBe("the bare-app app declares no orders (its kit's orders: registerAppKit), so there is none to cancel or place twice")
    }
    registerAppKit('orders-unit', { title: 'Orders', orders: { placed: async () => ['O-1'] } })
    const error = await adversary('placed then cancelled', task({ challenge_type: 'action' }), reference)(on('orders-unit')).catch((e: unknown) => e)
    expect((error as Error).message).toBe("the Orders app declares no way to cancel an order (its kit's orders.cancel)")
    expect(ran).toBe(0)
  })
})

describe("declaring an app's candidates and seeds: one line naming the file and the field", () => {
  test('under environments: in the config', () => {
    const yaml = (candidates: string) => folderWith(`environments:\n  lodge:\n    url: http://127.0.0.1:9\n    candidates: ${candidates}\n`)
    expect(errorOf(() => loadConfig(yaml('Cedar room'), {}))).toBe('agentest.config.yaml: environments.lodge.candidates: a list of lines, e.g. ["Cedar room: $120 a night"]')
    expect(errorOf(() => loadConfig(yaml('["Cedar", " "]'), {}))).toBe('agentest.config.yaml: environments.lodge.candidates[1]: a candidate is a line of text, not empty')
    expect(loadConfig(yaml('["Cedar room: $120"]'), {}).config.environments.lodge?.candidates).toEqual(['Cedar room: $120'])
  })

  test('in agentTest()', () => {
    expect(refusal(() => parseTaskSpec({ ...question, candidates: 'Cedar' }, FILE))).toBe(
      `${FILE}: agentTest(): candidates: a list of lines of text (none empty), or a function of the solution context that lists them`,
    )
    expect(refusal(() => parseTaskSpec({ ...question, challenge_type: 'action', candidates: ['Cedar'] }, FILE))).toBe(
      `${FILE}: agentTest(): candidates: only a question has a hedger to use them; set challenge_type: 'retrieval' (or 'retrieval-action')`,
    )
    expect(parseTaskSpec({ ...question, candidates: ['Cedar room'] }, FILE).candidates).toEqual(['Cedar room'])
  })

  test('seeds an environment declares are checked when a task loads', () => {
    const seeds = { lodge: ['default', 'with-bookings'] }
    expect(refusal(() => parseTaskSpec({ ...question, seed: 'with-booking' }, FILE, ['omnizon', 'lodge'], seeds))).toBe(
      `${FILE}: agentTest(): seed: lodge has no seed "with-booking" (did you mean "with-bookings"?); its seeds: default, with-bookings`,
    )
    expect(parseTaskSpec({ ...question, seed: 'with-bookings' }, FILE, ['omnizon', 'lodge'], seeds).seed).toBe('with-bookings')
    // Without a list the app itself answers for the name, at /config.
    expect(parseTaskSpec({ ...question, seed: 'anything' }, FILE, ['omnizon', 'lodge']).seed).toBe('anything')
    expect(errorOf(() => loadConfig(folderWith('environments:\n  lodge:\n    url: http://127.0.0.1:9\n    seeds: default\n'), {}))).toBe(
      'agentest.config.yaml: environments.lodge.seeds: a list of seed names, e.g. [default, with-bookings]',
    )
  })

  test("in an app's kit", () => {
    const bad = { candidates: 'Cedar room', orders: { cancel: async () => {} } } as never
    expect(refusal(() => registerAppKit('lodge-bad', bad)).split('\n')).toEqual([
      'test/unit/own-app.test.ts: registerAppKit("lodge-bad"): candidates: a list of strings, or a function of the app that lists them from its state',
      'test/unit/own-app.test.ts: registerAppKit("lodge-bad"): orders.placed: must be a function (app => ids of placed orders)',
    ])
  })
})
