import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import type { Spend } from './budget.ts'

/**
 * The run's agent spend so far, as a file in its results folder: each task appends its tokens
 * when it ends, and every worker sums the file before starting a task. Workers are separate
 * processes; a worker's own last task is always counted before its next one starts.
 */
const FILE = '.spend.jsonl'
const Line = z.object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() })

export function addRunSpend(resultsPath: string, spend: Spend): void {
  if (spend.input === 0 && spend.output === 0) return
  // One short line per append: O_APPEND keeps concurrent writers' lines whole.
  appendFileSync(join(resultsPath, FILE), `${JSON.stringify({ input: spend.input, output: spend.output })}\n`)
}

export function runSpend(resultsPath: string): Spend {
  const file = join(resultsPath, FILE)
  const total: Spend = { input: 0, output: 0 }
  if (!existsSync(file)) return total
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    const line = parseLine(text)
    if (!line) continue
    total.input += line.input
    total.output += line.output
  }
  return total
}

/** A line another worker is still writing is left for the next read. */
function parseLine(text: string): Spend | null {
  try {
    return text ? Line.parse(JSON.parse(text)) : null
  } catch {
    return null
  }
}
