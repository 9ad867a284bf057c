/**
 * Actions written as text, the way UI-TARS answers instead of calling tools:
 *
 *   Thought: The search box is at the top.
 *   Action: click(start_box='(595,30)')
 *
 * Points come as `(x,y)`, `<|box_start|>(x,y)<|box_end|>`, `<point>x y</point>` or a box
 * `[x1, y1, x2, y2]` (its centre), in the model's coordinate convention; the loop maps them.
 */

/** A point as the model wrote it (its convention, not yet screen pixels). */
export interface ModelPoint {
  x: number
  y: number
}

export type TextAction =
  | { kind: 'click'; at: ModelPoint; button: 'left' | 'right' }
  | { kind: 'double_click'; at: ModelPoint }
  | { kind: 'drag'; from: ModelPoint; to: ModelPoint }
  | { kind: 'keypress'; keys: string[] }
  | { kind: 'type'; text: string; submit: boolean }
  | { kind: 'scroll'; at: ModelPoint; direction: 'up' | 'down' | 'left' | 'right' }
  | { kind: 'wait' }
  | { kind: 'goto'; url: string }
  | { kind: 'back' }
  | { kind: 'finished'; answer: string }
  | { kind: 'call_user' }

export type ParsedText = { ok: true; thought: string | null; actions: TextAction[] } | { ok: false; thought: string | null; error: string }

/** The action space as the system prompt states it; browser tasks get goto and back too. */
export function textActionSpace(browser: boolean): string {
  const lines = [
    "click(start_box='(x,y)')",
    "left_double(start_box='(x,y)')",
    "right_single(start_box='(x,y)')",
    "drag(start_box='(x1,y1)', end_box='(x2,y2)')",
    "hotkey(key='ctrl c')  # keys split by a space, lowercase",
    "type(content='text')  # end content with \\n to submit",
    "scroll(start_box='(x,y)', direction='down or up or right or left')",
    'wait()  # a moment, then a new screenshot',
    ...(browser ? ["goto(url='/path or https://...')", 'back()'] : []),
    "finished(content='your final answer')",
  ]
  return lines.join('\n')
}

/** Reads one reply: an optional `Thought:` and one or more `Action:` calls. */
export function parseTextActions(content: string): ParsedText {
  const thought = /Thought:\s*([\s\S]*?)(?=\n\s*Action:|$)/.exec(content)?.[1]?.trim() || null
  const at = content.search(/Action:/)
  if (at < 0) return { ok: false, thought, error: 'the reply has no "Action:" line' }
  const calls = splitCalls(content.slice(at + 'Action:'.length))
  if (calls.length === 0) return { ok: false, thought, error: 'the "Action:" line holds no action' }
  const actions: TextAction[] = []
  for (const call of calls) {
    const action = toAction(call)
    if (typeof action === 'string') return { ok: false, thought, error: action }
    actions.push(action)
  }
  return { ok: true, thought, actions }
}

interface Call {
  name: string
  args: Record<string, string>
  text: string
}

/** `name(key='value', ...)` calls in order; values are single- or double-quoted with backslash escapes. */
function splitCalls(text: string): Call[] {
  const calls: Call[] = []
  const call = /([a-z_]+)\(/g
  let match: RegExpExecArray | null
  while ((match = call.exec(text))) {
    const args: Record<string, string> = {}
    let i = match.index + match[0].length
    for (;;) {
      while (/[\s,]/.test(text[i] ?? '')) i++
      if (text[i] === ')' || i >= text.length) break
      const key = /^([a-z_]+)\s*=\s*(['"])/.exec(text.slice(i))
      if (!key) break
      const quote = key[2]!
      i += key[0].length
      let value = ''
      while (i < text.length && text[i] !== quote) {
        if (text[i] === '\\' && i + 1 < text.length) {
          const next = text[i + 1]!
          value += next === 'n' ? '\n' : next === 't' ? '\t' : next
          i += 2
        } else value += text[i++]
      }
      args[key[1]!] = value
      i++
    }
    calls.push({ name: match[1]!, args, text: text.slice(match.index, i + 1).trim() })
    call.lastIndex = i
  }
  return calls
}

function toAction(call: Call): TextAction | string {
  const point = (name: string): ModelPoint | string => {
    // UI-TARS-1.5 writes start_box; later prompts write point / start_point / end_point.
    const aliases = name === 'start_box' ? ['start_box', 'point', 'start_point'] : ['end_box', 'end_point']
    const raw = aliases.map((alias) => call.args[alias]).find((value) => value !== undefined)
    if (raw === undefined) return `${call.name}: ${name} is missing (${call.text})`
    return readPoint(raw) ?? `${call.name}: ${name} is not a point: ${raw}`
  }
  switch (call.name) {
    case 'click':
    case 'left_single':
    case 'right_single':
    case 'left_double': {
      const at = point('start_box')
      if (typeof at === 'string') return at
      if (call.name === 'left_double') return { kind: 'double_click', at }
      return { kind: 'click', at, button: call.name === 'right_single' ? 'right' : 'left' }
    }
    case 'drag': {
      const from = point('start_box')
      const to = point('end_box')
      if (typeof from === 'string') return from
      if (typeof to === 'string') return to
      return { kind: 'drag', from, to }
    }
    case 'hotkey': {
      const keys = (call.args.key ?? '').split(/[\s+]+/).filter(Boolean)
      return keys.length ? { kind: 'keypress', keys } : `hotkey: key is missing (${call.text})`
    }
    case 'type': {
      const content = call.args.content
      if (content === undefined) return `type: content is missing (${call.text})`
      const submit = content.endsWith('\n')
      return { kind: 'type', text: submit ? content.slice(0, -1) : content, submit }
    }
    case 'scroll': {
      const at = point('start_box')
      if (typeof at === 'string') return at
      const direction = call.args.direction
      if (direction !== 'up' && direction !== 'down' && direction !== 'left' && direction !== 'right') {
        return `scroll: direction must be up, down, left or right (${call.text})`
      }
      return { kind: 'scroll', at, direction }
    }
    case 'wait':
      return { kind: 'wait' }
    case 'goto':
      return call.args.url ? { kind: 'goto', url: call.args.url } : `goto: url is missing (${call.text})`
    case 'back':
      return { kind: 'back' }
    case 'finished':
      return { kind: 'finished', answer: call.args.content ?? '' }
    case 'call_user':
      return { kind: 'call_user' }
    default:
      return `unknown action "${call.name}" (${call.text})`
  }
}

/** `(x,y)`, `<|box_start|>(x,y)<|box_end|>`, `<point>x y</point>`, or a box `[x1,y1,x2,y2]` / `(x1,y1,x2,y2)` as its centre. */
function readPoint(raw: string): ModelPoint | null {
  const numbers = (raw.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number)
  if (numbers.length === 2) return { x: numbers[0]!, y: numbers[1]! }
  if (numbers.length === 4) return { x: (numbers[0]! + numbers[2]!) / 2, y: (numbers[1]! + numbers[3]!) / 2 }
  return null
}
