import type { Computer } from '../../computer/computer.ts'
import type { ScreenScale } from '../shared/image.ts'
import type { AnthropicCuOptions, ToolVersion } from './options.ts'

/** Claude's computer tool, sized to the screenshots it is shown; zoom where the version has it. */
export function computerTool(version: ToolVersion, scale: ScreenScale): Record<string, unknown> {
  return {
    type: version,
    name: 'computer',
    display_width_px: scale.image.width,
    display_height_px: scale.image.height,
    ...(version === 'computer_20251124' ? { enable_zoom: true } : {}),
  }
}

/** goto/back as ordinary client tools, offered in a browser as openai-cua offers them. */
const BROWSER_TOOLS = [
  {
    name: 'goto',
    description: 'Open a URL in the current tab (absolute, or relative to the current page).',
    input_schema: { type: 'object', properties: { url: { type: 'string', description: 'The URL to open.' } }, required: ['url'], additionalProperties: false },
  },
  {
    name: 'back',
    description: "Go back to the previous page in the tab's history.",
    input_schema: { type: 'object', properties: {}, additionalProperties: false },
  },
]

export function hasBrowserTools(computer: Computer, options: AnthropicCuOptions): boolean {
  return options.browser_tools && computer.environment === 'browser' && !!computer.goto && !!computer.back
}

export function toolsFor(computer: Computer, version: ToolVersion, scale: ScreenScale, options: AnthropicCuOptions): Array<Record<string, unknown>> {
  return [computerTool(version, scale), ...(hasBrowserTools(computer, options) ? BROWSER_TOOLS : [])]
}

/** The system prompt: where the model is, that it acts alone, and how it ends a task. */
export function systemPrompt(computer: Computer, options: AnthropicCuOptions): string {
  const where = computer.environment === 'browser' ? 'a web browser (the screenshots show its page)' : `a ${computer.environment} desktop`
  const lines = [
    `You are operating ${where} through the computer tool to complete a task for a user.`,
    'Act on your own: never ask the user for confirmation or for more information.',
    'Take a screenshot whenever you are unsure what the screen shows; every action returns one.',
    'When the task is done, reply without a tool call; that reply is your final answer (for a question, the answer itself).',
  ]
  if (hasBrowserTools(computer, options)) lines.push('Besides the computer, you can call goto(url) to open a URL and back() to go back.')
  if (options.instructions) lines.push(options.instructions)
  return lines.join('\n')
}
