import { z } from 'zod'
import { InputError } from '../errors/input-error.ts'
import { TestCaseRun } from '../schema/run.ts'
import { recordKey } from '../schema/task.ts'
import type { RunFolder } from './folder.ts'
import type { StoredRun } from './record.ts'
import { shownPath } from './resolve.ts'

/** A person's verdict, as OSUniverse records it: 1 pass, 0 fail. */
const HumanScore = z.enum(['0', '1']).transform(Number)

export function parseHumanScore(given: string | undefined): number {
  const parsed = HumanScore.safeParse(given?.trim())
  if (!parsed.success) throw new InputError(`--score: 0 (fail) or 1 (pass), not ${given === undefined ? 'nothing' : JSON.stringify(given)}`)
  return parsed.data
}

/** The record named by its key (`id` or `id--variant`), or by a bare id when only one record has it. */
export function findRecord(folder: RunFolder, key: string): StoredRun {
  const exact = folder.records.find((r) => recordKey(r.run) === key)
  if (exact) return exact
  const byId = folder.records.filter((r) => r.run.id === key)
  if (byId.length === 1) return byId[0]!
  if (byId.length > 1) throw new InputError(`task ${key} has ${byId.length} records in ${shownPath(folder.dir)}; name one: ${byId.map((r) => recordKey(r.run)).join(', ')}`)
  const keys = folder.records.map((r) => recordKey(r.run))
  const known = keys.length === 0 ? 'it has no task records' : `known: ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? `, … (${keys.length} in all)` : ''}`
  throw new InputError(`no task ${key} in ${shownPath(folder.dir)} (${known})`)
}

/** The stored JSON with the person's score and comment, every other key, value and order kept. */
export function withHumanReview(stored: StoredRun, score: number, comment: string | null): Record<string, unknown> {
  const reviewed = { ...stored.raw, human_score: score, human_comment: comment }
  TestCaseRun.parse(reviewed)
  return reviewed
}
