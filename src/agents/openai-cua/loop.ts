import type OpenAI from 'openai'
import type { AgentContext, AgentOutcome } from '../agent.ts'
import { ToolErrors, Usage } from '../shared/act.ts'
import { UrlBlocklist } from '../shared/blocklist.ts'
import { callModel, createClient, ModelCallError } from '../shared/client.ts'
import { pngDataUrl, ScreenScale } from '../shared/image.ts'
import { parseOptions } from '../shared/options.ts'
import { redact, redactError } from '../../secrets/redact.ts'
import { resolveSettings, type ModelSettings } from '../shared/settings.ts'
import { runComputerCall, runFunctionCall, type CallContext } from './calls.ts'
import { ResponseBody, type InputItem } from './items.ts'
import { CuaOptions, DEFAULT_CUA_MODEL } from './options.ts'
import { cuaInstructions, cuaTools } from './prompt.ts'

type CreateParams = OpenAI.Responses.ResponseCreateParamsNonStreaming

/** The Responses API computer-use loop (after OpenAI's CUA sample app), acting through the recorded Computer. */
export async function runCua(ctx: AgentContext): Promise<AgentOutcome> {
  const options = parseOptions('openai-cua', CuaOptions, ctx.config.options)
  const settings = resolveSettings('openai-cua', ctx.config, options, DEFAULT_CUA_MODEL)
  try {
    return await loop(ctx, options, settings)
  } catch (error) {
    throw redactError(error, [settings.apiKey])
  }
}

async function loop(ctx: AgentContext, options: CuaOptions, settings: ModelSettings): Promise<AgentOutcome> {
  const { computer, signal, task } = ctx
  const secrets = [settings.apiKey]
  const think = (text: string) => ctx.think(redact(text, secrets))
  const client = createClient(settings, ctx.modelCache ?? null, ctx.transcript ?? null)
  const scale = new ScreenScale(computer.dimensions, options.screenshot_fit)
  const call: CallContext = {
    ctx,
    options,
    scale,
    blocklist: new UrlBlocklist(options.blocklist),
    toolErrors: new ToolErrors(options.max_tool_errors),
    notes: [],
  }
  const usage = new Usage()
  ctx.meter?.setModel(settings.model)
  const tools = cuaTools(computer, scale, options)
  const instructions = cuaInstructions(computer, options)
  const chained = options.history === 'previous_response_id'

  const url = computer.environment === 'browser' ? await computer.currentUrl() : null
  const first: InputItem = {
    role: 'user',
    content: [
      { type: 'input_text', text: task.goal },
      ...(url ? [{ type: 'input_text' as const, text: `URL: ${url}` }] : []),
      { type: 'input_image', image_url: pngDataUrl(await scale.encode(await computer.screenshot())), detail: 'auto' },
    ],
  }
  const history: InputItem[] = [first]
  let input: InputItem[] = [first]
  let previousId: string | null = null

  for (let turn = 0; turn < options.max_turns; turn++) {
    const body: Record<string, unknown> = {
      model: settings.model,
      instructions,
      input,
      tools,
      truncation: 'auto',
      ...(options.reasoning_summary ? { reasoning: { summary: options.reasoning_summary } } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.max_output_tokens !== undefined ? { max_output_tokens: options.max_output_tokens } : {}),
      ...(previousId ? { previous_response_id: previousId } : {}),
    }
    const response: ResponseBody = await callModel(
      // Our items follow the sample app (input_image outputs), which the SDK's types do not spell.
      () => client.responses.create(body as unknown as CreateParams, { signal }),
      ResponseBody,
      { what: 'the Responses API', retries: settings.retries, signal },
    )
    usage.add(response.usage?.input_tokens, response.usage?.output_tokens)
    ctx.meter?.addTokens(response.usage?.input_tokens, response.usage?.output_tokens)
    if (response.error) throw new ModelCallError(`the Responses API failed: ${response.error.message}`)

    const items = response.output
    const texts = items.flatMap((item) => (item.type === 'message' ? [messageText(item.content)] : [])).filter(Boolean)
    const summaries = items.flatMap((item) => (item.type === 'reasoning' ? item.summary.map((s) => s.text) : []))
    const acts = items.filter((item) => item.type === 'computer_call' || item.type === 'function_call')
    if (acts.length === 0 && texts.length > 0) {
      for (const summary of summaries) think(summary)
      return { answer: redact(texts[texts.length - 1]!, secrets), usage: usage.total }
    }

    const outputs: InputItem[] = []
    if (acts.length === 0) {
      call.toolErrors.note('the model neither acted nor answered')
      outputs.push(userText('Continue the task with the computer, or reply with your final answer.'))
    }
    for (const thought of [...summaries, ...texts]) think(thought)
    for (const item of items) {
      if (item.type === 'computer_call') outputs.push(await runComputerCall(item, call))
      else if (item.type === 'function_call') outputs.push(await runFunctionCall(item, call))
    }
    if (call.notes.length) outputs.push(userText(call.notes.splice(0).join('\n')))

    if (chained) {
      // The server holds the history (reasoning included); only the new items go.
      input = outputs
      previousId = response.id
    } else {
      history.push(...items.map((item) => item.raw), ...outputs)
      input = history
    }
  }
  throw new Error(`no final answer after ${options.max_turns} model calls (agent.options.max_turns)`)
}

function messageText(content: Array<{ type: string; text?: string; refusal?: string }>): string {
  return content
    .map((part) => part.text ?? part.refusal ?? '')
    .join('')
    .trim()
}

function userText(text: string): InputItem {
  return { role: 'user', content: [{ type: 'input_text', text }] }
}
