/**
 * The memory sampler's thread: /proc reads are synchronous and, on a loaded machine, slow (a
 * sample of a 16-task tree took up to 1.8 s), and the process that samples also serves the
 * scripted model. Here they block nothing but this thread.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { z } from 'zod'
import { KindCache, sampleTree, type TreeSample } from './memory.ts'

export const SamplerSettings = z.object({ root: z.number().int().positive(), intervalMs: z.number().positive(), pssEvery: z.number().int().nonnegative() })

/** One message to the sampling thread's parent: a sample, its pids, each process's CPU so far, and what it cost. */
export interface SampleMessage {
  sample: TreeSample
  pids: number[]
  cpu: Array<[number, { kind: string; seconds: number }]>
  cost_ms: number
}

const settings = SamplerSettings.parse(workerData)
const kinds = new KindCache()
const startedAt = Date.now()
let count = 0

function tick(): void {
  const pss = settings.pssEvery > 0 && count % settings.pssEvery === 0
  count++
  const cpu = new Map<number, { kind: string; seconds: number }>()
  const began = performance.now()
  const { sample, pids } = sampleTree(settings.root, { pss, startedAt, cpu, kinds })
  const message: SampleMessage = { sample, pids, cpu: [...cpu], cost_ms: performance.now() - began }
  parentPort?.postMessage(message)
}

tick()
setInterval(tick, settings.intervalMs)
