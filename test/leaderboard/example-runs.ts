import type { RunStatus } from '../../src/schema/run.ts'
import type { RecordInput } from '../runs/fixtures.ts'
import { judged, writeRun } from './runs.ts'

/** Made-up agents and models: the README's picture shows the page, not anyone's result. */
const PRICES = {
  'model-a': { input: 2.5, output: 10 },
  'model-b': { input: 0.15, output: 0.6 },
  'judge-a': { input: 0.4, output: 1.6 },
}

const TASKS: { id: string; suite: string; difficulty: number }[] = [
  ...Array.from({ length: 12 }, (_, i) => ({ id: `omnizon-${i + 1}`, suite: 'omnizon', difficulty: (i % 4) / 4 })),
  ...['editor', 'calculator', 'terminal'].flatMap((suite) => [1, 2, 3].map((n) => ({ id: `${suite}-${n}`, suite, difficulty: (n - 1) / 3 }))),
]

/** A fixed stream of numbers in [0, 1), so the example (and its picture) is the same every time. */
function stream(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

interface ExampleAgent {
  run: string
  agent: string
  model: string | null
  grader: string | null
  skill: number
  suites?: string[]
  seed: number
}

/** One run of an example agent: each task passes with a chance of its skill less the task's difficulty (skill 2: always). */
function exampleRun(resultsDir: string, spec: ExampleAgent): void {
  const next = stream(spec.seed)
  const records = TASKS.filter((t) => !spec.suites || spec.suites.includes(t.suite)).map((task): RecordInput => {
    const passed = next() < spec.skill * (1 - 0.5 * task.difficulty)
    const status: RunStatus = passed ? 'passed' : next() < 0.2 ? 'timeout' : 'failed'
    const scale = spec.model ? 1 : 0
    const judgedTask = task.id === 'omnizon-6' && spec.grader
    return {
      id: task.id,
      category: task.suite,
      app: task.suite === 'omnizon' ? 'omnizon' : null,
      status,
      input_tokens: Math.round(scale * (20_000 + 60_000 * next())),
      output_tokens: Math.round(scale * (600 + 1500 * next())),
      duration_ms: Math.round(spec.model ? 25_000 + 90_000 * next() : 2000 + 4000 * next()),
      ...(judgedTask ? judged(spec.grader!, passed) : {}),
    }
  })
  writeRun(resultsDir, { name: spec.run, agent: spec.agent, model: spec.model, configGrader: spec.grader, prices: PRICES, records })
}

/** Five runs of four agent × model × grader rows; model-b ran Omnizon only, so its row covers 12 of 21 tasks. */
export function writeExampleRuns(resultsDir: string): void {
  const examples: ExampleAgent[] = [
    { run: 'oracle-2026-03-01T09-00-00', agent: 'oracle', model: null, grader: 'judge-a', skill: 2, seed: 1 },
    { run: 'model-a-2026-03-01T10-00-00', agent: 'my-agent', model: 'model-a', grader: 'judge-a', skill: 0.85, seed: 2 },
    { run: 'model-a-2026-03-02T10-00-00', agent: 'my-agent', model: 'model-a', grader: 'judge-a', skill: 0.85, seed: 3 },
    { run: 'model-b-2026-03-02T14-00-00', agent: 'my-agent', model: 'model-b', grader: 'judge-a', skill: 0.6, suites: ['omnizon'], seed: 4 },
    { run: 'nop-2026-03-01T09-30-00', agent: 'nop', model: null, grader: null, skill: 0, seed: 5 },
  ]
  for (const example of examples) exampleRun(resultsDir, example)
}
