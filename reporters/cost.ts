// Run cost lives in src/runs/, shared with the run-folder commands; kept here for existing importers.
export { runCost } from '../src/runs/cost.ts'
