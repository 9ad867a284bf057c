import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, test } from 'vitest'
import { ReferenceSolutionError } from '../../src/task/reference-error.ts'

const TASK = join(process.cwd(), 'tasks/omnizon/omnizon-8.task.ts')

/** A Playwright-like error from inside the solution helpers, called from the task's solution at line 14. */
function playwrightError(taskFile = TASK): Error {
  const error = new Error('locator.waitFor: Unexpected token "" while parsing css selector "button[".')
  error.stack = [
    `Error: ${error.message}`,
    '    at BrowserUi.reveal (/work/main/src/reference/browser-ui.ts:71:19)',
    '    at BrowserUi.click (/work/main/src/reference/browser-ui.ts:47:28)',
    `    at solution (${taskFile}:14:14)`,
    `    at Object.reference (/work/main/src/task/session.ts:278:24)`,
  ].join('\n')
  return error
}

describe('an error thrown by a reference solution', () => {
  test('names the solution and its line in the task file, not run()', () => {
    const error = new ReferenceSolutionError('the reference solution', playwrightError())
    expect(error.location).toBe('tasks/omnizon/omnizon-8.task.ts:14:14')
    expect(error.message).toBe(
      'the reference solution threw at tasks/omnizon/omnizon-8.task.ts:14:14: locator.waitFor: Unexpected token "" while parsing css selector "button[".',
    )
  })

  test('a near miss is named as such; a file:// frame is read too', () => {
    const error = new ReferenceSolutionError('the near miss named "wrong item"', playwrightError(pathToFileURL(TASK).href))
    expect(error.message).toMatch(/^the near miss named "wrong item" threw at tasks\/omnizon\/omnizon-8\.task\.ts:14:14: /)
  })

  test('without a task frame it still says whose error it is', () => {
    expect(new ReferenceSolutionError('the reference solution', 'boom').message).toBe('the reference solution threw: boom')
  })

  test("the error run() throws starts its stack at the solution's line, so Vitest shows that line", () => {
    const reference = new ReferenceSolutionError('the reference solution', playwrightError())
    const thrown = reference.placeAtSolution(new Error(reference.message))
    const frames = thrown.stack!.split('\n').filter((line) => line.startsWith('    at '))
    expect(frames[0]).toBe(`    at solution (${TASK}:14:14)`)
    expect(frames.slice(1).some((line) => line.includes('reference-error.test.ts'))).toBe(true)
  })
})
