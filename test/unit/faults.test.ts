import { describe, expect, test } from 'vitest'
import { record } from '../runs/fixtures.ts'
import { tally } from '../../src/runs/stats.ts'
import { isReusable } from '../../src/cache/run-cache.ts'
import { classifyStartError, openWithRetries, SandboxStartError } from '../../src/task/sandbox-start.ts'
import { SandboxUnavailable, type TaskSandbox } from '../../src/task/sandboxes.ts'
import { faultLines, resumeLines } from '../../reporters/summary.ts'
import { summarize } from '../../src/runs/summarize.ts'
import { rerunFaulted } from '../../src/runs/rerun.ts'
import type { Fault } from '../../src/faults/kinds.ts'

const FACTS = { run_id: 'r', agent: 'oracle', agent_model: null, started_at: '2026-01-01T00:00:00.000Z', finished_at: '2026-01-01T00:01:00.000Z', prices: {} }
const errored = (id: string, kind: string) => record({ id, status: 'error', agent_status: 'error', error: { kind, message: `${kind} happened` } })

describe('faults in the counts', () => {
  const runs = [
    record({ id: 'a' }),
    record({ id: 'b', status: 'failed' }),
    record({ id: 'c', status: 'aborted', agent_status: 'aborted', error: { kind: 'aborted', message: 'interrupted' } }),
    errored('d', 'out_of_memory'),
    errored('e', 'agent_error'),
    errored('f', 'model_error'),
  ]

  test("an aborted task is in no rate, nor a fault not of the agent's doing (faulted); the agent's faults count as not passed; all are named", () => {
    const t = tally(runs)
    expect(t).toMatchObject({ total: 6, passed: 1, failed: 1, error: 2, aborted: 1, faulted: 1, scored: 4, success_rate: 0.25 })
    expect(t.faults).toEqual({ aborted: 1, model_error: 1, out_of_memory: 1 })
    expect(faultLines(t, rerunFaulted(runs)!)).toEqual([
      "  1 faulted (not the agent's doing), in neither rate: model_error 1",
      "  re-run them: npx vitest run tasks/omnizon/f.task.ts -t '^(f): '",
      "  (or the run's own command again: faults are never reused, the rest is)",
      "  faults in the rates (the agent's doing): out_of_memory 1 (never reused: the same command runs them again)",
    ])
  })

  test('a fault is never reused, even one recorded as failed; an agent failure is', () => {
    expect(isReusable(record({ id: 'x', status: 'failed', error: { kind: 'sandbox_gone', message: 'container exited with code 137' } }))).toBe(false)
    expect(isReusable(record({ id: 'x', status: 'failed', error: { kind: 'check_failed', message: 'wrong item' } }))).toBe(true)
    expect(isReusable(errored('x', 'model_error'))).toBe(false)
  })

  test('an interrupted run says what it left and how to resume', () => {
    const summary = { ...summarize(runs, FACTS), interrupted: { cause: 'SIGINT' as const, not_started: 2, files_not_started: 1 } }
    expect(resumeLines(summary)).toEqual([
      '  interrupted by Ctrl-C: 5 finished · 1 cut off in flight · 2 not started (and 1 task file never loaded)',
      '  to resume, run the same command again: finished tasks are reused, aborted and unstarted ones run',
    ])
    expect(resumeLines(summarize(runs, FACTS))).toEqual([])
  })
})

describe('a sandbox that fails to start', () => {
  const signal = new AbortController().signal
  const healthy = { gone: async () => null, close: async () => {} } as unknown as TaskSandbox
  const dead = (fault: Fault) => ({ gone: async () => fault, close: async () => {} }) as unknown as TaskSandbox
  const classify = async (error: unknown): Promise<Fault> => ({ kind: 'sandbox_start', message: String((error as Error).message) })

  test('is started again once, and the failed try is on record', async () => {
    let tries = 0
    const open = async () => (++tries === 1 ? Promise.reject(new Error('no such container')) : healthy)
    const started = await openWithRetries(open, { retries: 1, classify, signal })
    expect(started.sandbox).toBe(healthy)
    expect(started.retries).toEqual([{ kind: 'sandbox_start', message: 'no such container' }])
  })

  test('one dead before the agent acts counts as a failed start; past the retries it is a SandboxStartError', async () => {
    const gone: Fault = { kind: 'out_of_memory', message: 'container x was OOM-killed at its memory limit of 64 MB' }
    const error = await openWithRetries(async () => dead(gone), { retries: 1, classify, signal }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SandboxStartError)
    expect((error as SandboxStartError).fault).toEqual(gone)
    expect((error as SandboxStartError).retries).toEqual([gone])
  })

  test('a sandbox that cannot exist here is not retried', async () => {
    let tries = 0
    const open = async (): Promise<TaskSandbox> => {
      tries++
      throw new SandboxUnavailable('no Docker engine')
    }
    await expect(openWithRetries(open, { retries: 3, classify, signal })).rejects.toBeInstanceOf(SandboxUnavailable)
    expect(tries).toBe(1)
  })

  test('is told apart: the engine gone, the clone down, or the sandbox itself', async () => {
    const error = new Error('connect ECONNREFUSED /var/run/docker.sock')
    expect((await classifyStartError(error, { engine: async () => false })).kind).toBe('docker_unreachable')
    const down: Fault = { kind: 'clone_down', message: 'the omnizon web clone does not answer' }
    expect(await classifyStartError(error, { clone: async () => down })).toEqual(down)
    expect(await classifyStartError(error, { engine: async () => true })).toEqual({ kind: 'sandbox_start', message: error.message })
  })
})
