import type { GraderConfig } from '../../schema/config.ts'
import { createGrader, type Grader } from './grader.ts'

const graders = new Map<string, Grader | null>()

/** One grader (and its HTTP clients) per worker and configuration, shared by its tasks. */
export function graderFor(config: GraderConfig): Grader | null {
  const key = JSON.stringify(config)
  if (!graders.has(key)) graders.set(key, createGrader(config))
  return graders.get(key)!
}
