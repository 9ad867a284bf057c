import { defineAgent, defineHarnessAgent } from './agent.ts'

/** Runs the task's reference solution through the recorded Computer. Every task must pass under it. */
export const oracle = defineHarnessAgent({
  name: 'oracle',
  async run({ task }, { reference }) {
    if (!reference) throw new Error(`task ${task.id} has no reference solution (add \`solution\` to its agentTest())`)
    return { answer: await reference() }
  },
})

/**
 * Runs one of the task's deliberately wrong solutions (see `near_misses`). Under this agent each
 * near miss is its own test, and every one must fail: the checks are not over-permissive.
 */
export const nearMiss = defineHarnessAgent({
  name: 'near-miss',
  async run({ task }, { reference, referenceName }) {
    if (!reference) throw new Error(`task ${task.id} has no ${referenceName}`)
    return { answer: await reference() }
  },
})

/**
 * Runs one of the task's alternative solutions (see `alternatives`): a right way to do the task
 * by another route. Under this agent each alternative is its own test, and every one must pass:
 * the checks judge the outcome, not the path the reference happened to take.
 */
export const alternative = defineHarnessAgent({
  name: 'alternative',
  async run({ task }, { reference, referenceName }) {
    if (!reference) throw new Error(`task ${task.id} has no ${referenceName}`)
    return { answer: await reference() }
  },
})

/** Does nothing. Every task must fail under it, which shows its checks are not vacuous. */
export const nop = defineAgent({
  name: 'nop',
  async run() {
    return { answer: null }
  },
})
