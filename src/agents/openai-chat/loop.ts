import type OpenAI from 'openai'
import type { AgentContext, AgentOutcome } from '../agent.ts'
import { act, checkAction, ToolErrors, Usage } from '../shared/act.ts'
import { UrlBlocklist } from '../shared/blocklist.ts'
import { callModel, createClient } from '../shared/client.ts'
import { ScreenScale } from '../shared/image.ts'
import { parseOptions } from '../shared/options.ts'
import { redact, redactError } from '../../secrets/redact.ts'
import { resolveSettings, type ModelSettings } from '../shared/settings.ts'
import { CompletionBody, pruneScreenshots, type ChatMessage, type ToolCall } from './messages.ts'
import { chatInstructions, observe } from './observe.ts'
import { ModelCoordinates } from './coordinates.ts'
import { ChatOptions } from './options.ts'
import { availableTools, parseToolCall, toolDefinitions } from './tools.ts'
import { runTextTurn, textInstructions } from './text-turn.ts'

type CreateParams = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming

/** A tool-calling loop over Chat Completions, for any OpenAI-compatible server. */
export async function runChat(ctx: AgentContext): Promise<AgentOutcome> {
  const options = parseOptions('openai-chat', ChatOptions, ctx.config.options)
  const settings = resolveSettings('openai-chat', ctx.config, options, null)
  try {
    return await loop(ctx, options, settings)
  } catch (error) {
    throw redactError(error, [settings.apiKey])
  }
}

async function loop(ctx: AgentContext, options: ChatOptions, settings: ModelSettings): Promise<AgentOutcome> {
  const { computer, signal, task } = ctx
  const secrets = [settings.apiKey]
  const client = createClient(settings, ctx.modelCache ?? null, ctx.transcript ?? null)
  const scale = new ScreenScale(computer.dimensions, options.screenshot_fit)
  const coordinates = new ModelCoordinates(options.coordinates, scale)
  // The model's points are mapped to screen pixels before the action is checked.
  const screenPixels = new ScreenScale(computer.dimensions, null)
  const blocklist = new UrlBlocklist(options.blocklist)
  const toolErrors = new ToolErrors(options.max_tool_errors)
  const usage = new Usage()
  ctx.meter?.setModel(settings.model)
  const offered = availableTools(computer)
  const inText = options.action_format === 'ui-tars'
  const tools = toolDefinitions(offered)
  const system = chatInstructions(computer, coordinates, options)
  const messages: ChatMessage[] = [
    { role: 'system', content: inText ? `${system}\n\n${textInstructions(computer)}` : system },
    { role: 'user', content: [{ type: 'text', text: `Task: ${task.goal}` }, ...(await observe(computer, scale, options))] },
  ]

  /** Runs one tool call; returns the final answer, or the text for the tool message. */
  const runTool = async (call: ToolCall): Promise<{ answer: string } | { output: string }> => {
    const parsed = parseToolCall(call.function.name, call.function.arguments, offered)
    if (!parsed.ok) {
      toolErrors.note(parsed.error)
      return { output: `error: ${parsed.error}` }
    }
    if (parsed.name === 'answer') return { answer: String(parsed.args.answer) }
    const checked = await checkAction({ type: parsed.name, ...coordinates.toScreen(parsed.args) }, screenPixels, computer)
    if (!checked.ok) {
      toolErrors.note(checked.error)
      return { output: `error: ${checked.error}` }
    }
    await act(computer, checked.action, blocklist)
    return { output: 'done' }
  }

  for (let turn = 0; turn < options.max_turns; turn++) {
    const body: Record<string, unknown> = {
      model: settings.model,
      messages,
      // A model that answers in text gets no tools: its actions are in the reply.
      ...(inText ? {} : { tools, tool_choice: options.tool_choice }),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.max_output_tokens !== undefined ? { max_completion_tokens: options.max_output_tokens } : {}),
    }
    const completion: CompletionBody = await callModel(
      () => client.chat.completions.create(body as unknown as CreateParams, { signal }),
      CompletionBody,
      { what: 'the Chat Completions API', retries: settings.retries, signal },
    )
    usage.add(completion.usage?.prompt_tokens, completion.usage?.completion_tokens)
    ctx.meter?.addTokens(completion.usage?.prompt_tokens, completion.usage?.completion_tokens)
    const message = completion.choices[0]!.message
    if (inText) {
      messages.push({ role: 'assistant', content: message.content ?? '' })
      const turn = await runTextTurn(redact(message.content ?? '', secrets), { computer, coordinates, screenPixels, blocklist, think: ctx.think })
      if ('answer' in turn) return { answer: turn.answer, usage: usage.total }
      if ('error' in turn) {
        toolErrors.note(turn.error)
        messages.push({ role: 'user', content: [{ type: 'text', text: `error: ${turn.error}. Answer with "Thought: ..." and "Action: ...".` }] })
        continue
      }
      messages.push({ role: 'user', content: await observe(computer, scale, options) })
      pruneScreenshots(messages, options.keep_screenshots)
      continue
    }
    const calls = message.tool_calls ?? []
    messages.push({ role: 'assistant', content: message.content ?? null, ...(calls.length ? { tool_calls: calls } : {}) })
    for (const thought of [message.reasoning_content, message.content]) if (thought?.trim()) ctx.think(redact(thought.trim(), secrets))

    if (calls.length === 0) {
      toolErrors.note('the reply called no tool')
      messages.push({ role: 'user', content: [{ type: 'text', text: 'Call a tool to act, or call answer with your final answer.' }] })
      continue
    }
    for (const call of calls) {
      const result = await runTool(call)
      if ('answer' in result) return { answer: redact(result.answer, secrets), usage: usage.total }
      messages.push({ role: 'tool', tool_call_id: call.id, content: result.output })
    }
    messages.push({ role: 'user', content: await observe(computer, scale, options) })
    pruneScreenshots(messages, options.keep_screenshots)
  }
  throw new Error(`no final answer after ${options.max_turns} model calls (agent.options.max_turns)`)
}
