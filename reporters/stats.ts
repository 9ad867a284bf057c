// The summary's statistics live in src/runs/, shared with the run-folder commands; kept here for existing importers.
export { durationStats, groupBy, tally, weightedScore } from '../src/runs/stats.ts'
export { isUnscored } from '../src/runs/outcome.ts'
