import type { Computer } from '../../computer/computer.ts'
import { pngDataUrl, type ScreenScale } from '../shared/image.ts'
import type { ModelCoordinates } from './coordinates.ts'
import type { ContentPart } from './messages.ts'
import type { ChatOptions } from './options.ts'

/** What the model sees of the screen: URL, screenshot and/or accessibility tree, per `observation`. */
export async function observe(computer: Computer, scale: ScreenScale, options: ChatOptions): Promise<ContentPart[]> {
  const parts: ContentPart[] = []
  const url = await computer.currentUrl()
  if (url) parts.push({ type: 'text', text: `URL: ${url}` })
  const tree = options.observation !== 'screenshot' && computer.accessibilityTree ? await computer.accessibilityTree() : null
  // Without a tree (a desktop) the screenshot is the only observation there is.
  if (options.observation !== 'axtree' || tree === null) {
    parts.push({ type: 'image_url', image_url: { url: pngDataUrl(await scale.encode(await computer.screenshot())) } })
  }
  if (tree !== null) parts.push({ type: 'text', text: `Accessibility tree:\n${cut(tree, options.axtree_max_chars)}` })
  return parts
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters cut)`
}

/** The system prompt: the environment, the coordinate space and how to finish. */
export function chatInstructions(computer: Computer, coordinates: ModelCoordinates, options: ChatOptions): string {
  const where = computer.environment === 'browser' ? 'a web browser' : `a ${computer.environment} desktop`
  const inText = options.action_format === 'ui-tars'
  const lines = [
    `You are operating ${where} to complete a task for a user, with the ${inText ? 'actions below' : 'tools given'}.`,
    coordinates.describe(),
    `After your ${inText ? 'action' : 'tool calls'} you get the new state of the screen.`,
    'Act on your own: never ask the user for confirmation or for more information.',
    `When the task is done, ${inText ? "use finished(content='...')" : 'call answer'} with your final answer: for a question the answer itself, otherwise a short summary.`,
  ]
  if (options.instructions) lines.push(options.instructions)
  return lines.join('\n')
}
