import { performAction } from '../../computer/computer.ts'
import { defineHarnessAgent } from '../agent.ts'
import { parseOptions } from '../shared/options.ts'
import { ReplayOptions } from './options.ts'
import { findRecordedRun, loadRecordedRun, rebase, recordedOrigin, recordedSteps } from './recorded-run.ts'

export { ReplayOptions } from './options.ts'

/**
 * `replay`: performs the actions of a recorded TestCaseRun again, with their thoughts, and gives
 * its final answer, to reproduce a run. URLs of the recorded clone are moved to today's origin.
 */
export const replay = defineHarnessAgent({
  name: 'replay',
  async run({ task, computer, think, config }, { resultsDir }) {
    const options = parseOptions('replay', ReplayOptions, config.options)
    const file = findRecordedRun(options.from, task.id, resultsDir)
    const recorded = loadRecordedRun(file)
    if (recorded.id !== task.id) throw new Error(`${file} records task ${recorded.id}, not ${task.id}`)
    const from = recordedOrigin(recorded)
    const now = await computer.currentUrl()
    const to = now && /^https?:/.test(now) ? new URL(now).origin : null
    for (const { action, thought } of recordedSteps(recorded)) {
      if (thought) think(thought)
      await performAction(computer, action.type === 'goto' ? { ...action, url: rebase(action.url, from, to) } : action)
    }
    return { answer: options.answer ? recorded.final_answer : null }
  },
})

export { findRecordedRun, loadRecordedRun, loadRunFolder, recordedSteps, recordedOrigin, rebase } from './recorded-run.ts'
