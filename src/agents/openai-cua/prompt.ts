import type { Computer } from '../../computer/computer.ts'
import type { ScreenScale } from '../shared/image.ts'
import type { CuaOptions } from './options.ts'

/** The tools sent with every call: the computer, plus goto/back functions in a browser. */
export function cuaTools(computer: Computer, scale: ScreenScale, options: CuaOptions): Array<Record<string, unknown>> {
  const tools: Array<Record<string, unknown>> = [
    {
      type: 'computer_use_preview',
      display_width: scale.image.width,
      display_height: scale.image.height,
      environment: computer.environment,
    },
  ]
  if (hasBrowserTools(computer, options)) {
    tools.push(
      {
        type: 'function',
        name: 'goto',
        description: 'Open a URL in the current tab (absolute, or relative to the current page).',
        parameters: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'], additionalProperties: false },
        strict: true,
      },
      {
        type: 'function',
        name: 'back',
        description: 'Go back to the previous page.',
        parameters: { type: 'object', properties: {}, additionalProperties: false },
        strict: true,
      },
    )
  }
  return tools
}

export function hasBrowserTools(computer: Computer, options: CuaOptions): boolean {
  return options.browser_tools && computer.environment === 'browser' && Boolean(computer.goto && computer.back)
}

/** Sent as `instructions` on every call (the API does not carry them over previous_response_id). */
export function cuaInstructions(computer: Computer, options: CuaOptions): string {
  const where = computer.environment === 'browser' ? 'a web browser' : `a ${computer.environment} desktop`
  const lines = [
    `You are operating ${where} to complete a task for a user.`,
    'Act on your own: never ask the user for confirmation or for more information.',
    'When the task is done, reply with a message that is your final answer; for a question, the answer itself.',
  ]
  if (hasBrowserTools(computer, options)) lines.push('Besides the computer, you can call goto(url) to open a URL and back() to go back.')
  if (options.instructions) lines.push(options.instructions)
  return lines.join('\n')
}
