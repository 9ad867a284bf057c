import type Anthropic from '@anthropic-ai/sdk'
import { PIXELS_PER_WHEEL_CLICK } from '../../computer/xdotool.ts'
import type { AgentContext, AgentOutcome } from '../agent.ts'
import { ToolErrors, Usage } from '../shared/act.ts'
import { UrlBlocklist } from '../shared/blocklist.ts'
import { callModel } from '../shared/client.ts'
import { ScreenScale } from '../shared/image.ts'
import { parseOptions } from '../shared/options.ts'
import { redact, redactError } from '../../secrets/redact.ts'
import { resolveSettings, type ModelSettings } from '../shared/settings.ts'
import { createAnthropicClient, explainAnthropicError } from './client.ts'
import { imageBlock, inputTokens, MessageBody, textBlock, ToolUseBlock, withCacheBreakpoints, type Message } from './messages.ts'
import { AnthropicCuOptions, BETA_OF, DEFAULT_ANTHROPIC_MODEL, defaultToolVersion } from './options.ts'
import { runToolUse, type ToolContext } from './results.ts'
import { fitForClaude } from './screen.ts'
import { systemPrompt, toolsFor } from './tools.ts'

type CreateParams = Anthropic.Beta.Messages.MessageCreateParamsNonStreaming

/** The model stopped with stop_reason "refusal": the task ends, not passed, with its words. */
export class ModelRefusalError extends Error {
  override name = 'ModelRefusalError'
}

/** Claude's computer-use loop over the Messages API, acting through the recorded Computer. */
export async function runAnthropicCu(ctx: AgentContext): Promise<AgentOutcome> {
  const options = parseOptions('anthropic-cu', AnthropicCuOptions, ctx.config.options)
  const settings = resolveSettings('anthropic-cu', ctx.config, options, DEFAULT_ANTHROPIC_MODEL)
  try {
    return await loop(ctx, options, settings)
  } catch (error) {
    throw redactError(error, [settings.apiKey])
  }
}

async function loop(ctx: AgentContext, options: AnthropicCuOptions, settings: ModelSettings): Promise<AgentOutcome> {
  const { computer, signal, task } = ctx
  const secrets = [settings.apiKey]
  const think = (text: string) => ctx.think(redact(text, secrets))
  const client = createAnthropicClient(settings, ctx.modelCache ?? null, ctx.transcript ?? null)
  const version = options.tool_version ?? defaultToolVersion(settings.model)
  const scale = new ScreenScale(computer.dimensions, options.screenshot_fit ?? fitForClaude(computer.dimensions))
  const tools: ToolContext = {
    ctx,
    scale,
    blocklist: new UrlBlocklist(options.blocklist),
    toolErrors: new ToolErrors(options.max_tool_errors),
    zoom: version === 'computer_20251124',
    scrollUnitPx: options.scroll_unit_px ?? (computer.environment === 'browser' ? 100 : PIXELS_PER_WHEEL_CLICK),
  }
  const usage = new Usage()
  ctx.meter?.setModel(settings.model)
  const thinking = options.thinking_budget === null ? null : { type: 'enabled', budget_tokens: options.thinking_budget }
  // max_tokens bounds thinking and answer together, so it must leave room past the budget.
  const maxTokens = options.max_output_tokens ?? 4096 + (options.thinking_budget ?? 0)
  const fixed = {
    model: settings.model,
    max_tokens: maxTokens,
    system: systemPrompt(computer, options),
    tools: toolsFor(computer, version, scale, options),
    betas: [BETA_OF[version]],
    ...(thinking ? { thinking } : {}),
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
  }

  const url = computer.environment === 'browser' ? await computer.currentUrl() : null
  const messages: Message[] = [
    {
      role: 'user',
      content: [textBlock(task.goal), ...(url ? [textBlock(`URL: ${url}`)] : []), imageBlock(await scale.encode(await computer.screenshot()))],
    },
  ]

  for (let turn = 0; turn < options.max_turns; turn++) {
    const body = { ...fixed, messages: options.prompt_caching ? withCacheBreakpoints(messages) : messages }
    const response: MessageBody = await callModel(
      () => client.beta.messages.create(body as unknown as CreateParams, { signal }),
      MessageBody,
      { what: 'the Messages API', retries: settings.retries, signal, explain: explainAnthropicError },
    )
    usage.add(inputTokens(response.usage), response.usage.output_tokens)
    ctx.meter?.addTokens(inputTokens(response.usage), response.usage.output_tokens)

    const blocks = response.content
    const texts = blocks.flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text.trim()] : [])).filter(Boolean)
    for (const block of blocks) if (block.type === 'thinking' && typeof block.thinking === 'string') think(block.thinking)
    const uses = blocks.filter((block) => block.type === 'tool_use').map((block) => ToolUseBlock.parse(block))

    if (response.stop_reason === 'refusal') {
      throw new ModelRefusalError(`the model refused to go on (stop_reason: refusal)${texts.length ? `: ${redact(texts.join(' '), secrets)}` : ''}`)
    }
    messages.push({ role: 'assistant', content: blocks })
    // A paused turn (long server-side work) is continued by sending it back as it is.
    if (response.stop_reason === 'pause_turn') continue
    if (uses.length === 0) {
      if (texts.length > 0 && response.stop_reason !== 'max_tokens') return { answer: redact(texts.join('\n'), secrets), usage: usage.total }
      const why = response.stop_reason === 'max_tokens' ? 'the reply was cut off at max_tokens' : 'the model neither acted nor answered'
      tools.toolErrors.note(why)
      messages.push({ role: 'user', content: [textBlock('Continue the task with the computer, or reply with your final answer.')] })
      continue
    }
    for (const text of texts) think(text)
    const results: Array<Record<string, unknown>> = []
    for (const use of uses) results.push(await runToolUse(use, tools))
    messages.push({ role: 'user', content: results })
  }
  throw new Error(`no final answer after ${options.max_turns} model calls (agent.options.max_turns)`)
}
