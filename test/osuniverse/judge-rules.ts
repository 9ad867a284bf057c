import sharp from 'sharp'
import { readJudgeRequest, verdict, type Fact, type JudgeRequest, type JudgeRule } from '../../fixtures/model-server/openai/judge-policy.ts'
import type { ReplyInput } from '../../fixtures/model-server/openai/replies.ts'
import type { ModelCall } from '../../fixtures/model-server/server.ts'
import { mentions, numbersIn } from '../../src/checks/answer.ts'

/**
 * The scripted judge's rules for the OSUniverse cases in fixtures/osuniverse-cases (a TEST
 * DOUBLE for an LLM judge): each check is decided from the evidence it is sent (the answer, the
 * command's output, the steps, the final screen's pixels), never from its mere presence, so a
 * run that did nothing, or did a near miss, fails.
 */
export const OSUNIVERSE_RULES: JudgeRule[] = [
  // terminal/count_guests: 7, and no other number (the file has 9 words).
  { expected: /guests\.txt has seven lines/, facts: (r) => [{ question: 'Does the answer give 7 and no other number?', met: sameNumbers(answerOf(r), [7]) }] },
  // terminal/archive_notes: the archive lists the folder's three files, nothing from elsewhere.
  { expected: /listing of notes\.tar\.gz/, facts: (r) => archiveFacts(outputOf(r)) },
  {
    expected: /types a tar command into the terminal/,
    facts: (r) => [{ question: 'Was a tar command making notes.tar.gz typed?', met: typedOf(r).some((t) => /\btar\b/.test(t) && /notes\.tar\.gz/.test(t)) }],
  },
  // desktop/shopping_list: exactly milk, eggs, bread.
  { expected: /saved list\.txt/, facts: (r) => [{ question: 'Are the lines milk, eggs, bread?', met: sameLines(outputOf(r), ['milk', 'eggs', 'bread']) }] },
  // libreoffice_calc/expense_total: the rows as they were, and Total 1375.5 below; a SUM formula.
  {
    expected: /saved sheet as CSV/,
    facts: (r) => [{ question: 'Are the rows the four expenses, then Total,1375.5?', met: sameLines(outputOf(r), ['Item,Amount', 'Rent,900', 'Food,310.5', 'Travel,120', 'Books,45', 'Total,1375.5']) }],
  },
  { expected: /formulas of the saved sheet/, facts: (r) => [{ question: 'Is there a SUM over B2:B5?', met: /SUM\(\[\.B2:\.B5\]\)/i.test(outputOf(r)) }] },
  // libreoffice_writer/month_plan: the title with the month the rubric names (the placeholder, expanded).
  { expected: /text of plan\.odt/, facts: (r) => planFacts(r) },
  // libreoffice_writer/fix_spelling: both corrected, the rest unchanged; done in Find & Replace.
  {
    expected: /text of the saved letter\.odt/,
    facts: (r) => [
      {
        question: 'Is the letter the original with both words corrected?',
        met: sameLines(outputOf(r), ['Dear team,', 'Please receive the parcel at the front desk.', 'We will receive the invoice by Friday.', 'Regards, Kim']),
      },
    ],
  },
  { expected: /opens Writer's Find & Replace dialog/, facts: (r) => findReplaceFacts(r) },
  // browser/visitor_pass: ORCHID, and not the expired TULIP.
  {
    expected: /returns the code word ORCHID/,
    facts: (r) => [
      { question: 'Does the answer name ORCHID?', met: mentions(answerOf(r), 'ORCHID') },
      { question: 'Does it leave out the expired TULIP?', met: !mentions(answerOf(r), 'TULIP') },
    ],
  },
]

/** A rule on the final screen's pixels, for final_screenshot checks. */
export interface ScreenRule {
  expected: RegExp
  facts: (screens: readonly Screen[]) => Fact[]
}

/** A screenshot as the judge was sent it, as RGB bytes. */
export interface Screen {
  width: number
  height: number
  rgb: Buffer
}

export const OSUNIVERSE_SCREEN_RULES: ScreenRule[] = [
  // gimp/open_poster: the magenta picture covers a good part of the screen (at 100% it is a quarter).
  {
    expected: /shows poster\.png: a plain magenta/,
    facts: (screens) => [{ question: 'Is at least 8% of the screen the poster\'s magenta?', met: screens.some((s) => share(s, ([r, g, b]) => r > 230 && g < 40 && b > 230) >= 0.08) }],
  },
]

/**
 * A judge policy that decides final-screen checks by their pixels (`rules`) and every other
 * check with `fallback` (the keyword judge with its text rules).
 */
export function withScreenRules(fallback: (call: ModelCall) => ReplyInput | Promise<ReplyInput>, rules: readonly ScreenRule[]): (call: ModelCall) => Promise<ReplyInput> {
  return async (call) => {
    const request = readJudgeRequest(call)
    const rule = request ? rules.find((r) => r.expected.test(request.expected)) : undefined
    if (!rule) return fallback(call)
    const facts = rule.facts(await Promise.all(imagesOf(call).map(decode)))
    const unmet = facts.filter((fact) => !fact.met)
    const checklist = facts.map((fact) => ({ question: fact.question, answer: fact.met ? 'yes' : 'no', met: fact.met }))
    return verdict(checklist, facts.length > 0 && unmet.length === 0 ? 1 : 0, unmet.length ? `Not met: ${unmet.map((f) => f.question).join('; ')}` : 'The screen shows what is expected.')
  }
}

function imagesOf(call: ModelCall): Buffer[] {
  const images: Buffer[] = []
  for (const message of Array.isArray(call.body.messages) ? call.body.messages : []) {
    const content = (message as { content?: unknown }).content
    for (const part of Array.isArray(content) ? content : []) {
      const url = (part as { image_url?: { url?: unknown } }).image_url?.url
      const data = typeof url === 'string' ? /^data:image\/\w+;base64,(.*)$/s.exec(url)?.[1] : undefined
      if (data) images.push(Buffer.from(data, 'base64'))
    }
  }
  return images
}

async function decode(image: Buffer): Promise<Screen> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return { width: info.width, height: info.height, rgb: data }
}

/** The share of a screen's pixels that pass `test`. */
function share(screen: Screen, test: (rgb: [number, number, number]) => boolean): number {
  let hits = 0
  for (let i = 0; i + 2 < screen.rgb.length; i += 3) if (test([screen.rgb[i]!, screen.rgb[i + 1]!, screen.rgb[i + 2]!])) hits++
  return hits / (screen.width * screen.height)
}

function answerOf(r: JudgeRequest): string {
  return r.blocks.filter((b) => b.kind === 'answer').map((b) => b.text).join('\n')
}

function outputOf(r: JudgeRequest): string {
  return r.blocks.filter((b) => b.kind === 'output').map((b) => b.text).join('\n')
}

/** What the agent typed, one entry per `type` step (the judge prompt shows it as JSON). */
function typedOf(r: JudgeRequest): string[] {
  return actionsOf(r).flatMap((a) => {
    const quoted = /^type (".*")$/.exec(a)?.[1]
    return quoted ? [JSON.parse(quoted) as string] : []
  })
}

function actionsOf(r: JudgeRequest): string[] {
  return r.blocks.filter((b) => b.kind === 'step').map((b) => /^action: (.*)$/m.exec(b.text)?.[1] ?? '')
}

function sameNumbers(text: string, expected: number[]): boolean {
  const found = numbersIn(text)
  return found.length === expected.length && found.every((n, i) => n === expected[i])
}

/** The output's non-blank lines, trimmed, are exactly `expected`. */
function sameLines(output: string, expected: readonly string[]): boolean {
  const lines = output.replace(/^\uFEFF/, '').split(/\r?\n/).map((l) => l.trim()).filter(Boolean)
  return lines.length === expected.length && lines.every((line, i) => line === expected[i])
}

function archiveFacts(listing: string): Fact[] {
  const entries = listing.split('\n').map((l) => l.trim()).filter(Boolean)
  const files = ['a.txt', 'b.txt', 'c.txt']
  return [
    { question: 'Does the archive hold notes/a.txt, notes/b.txt and notes/c.txt?', met: files.every((f) => entries.some((e) => e.endsWith(`notes/${f}`))) },
    // Only the folder and its files (a leading path to it, e.g. home/agent/Documents/, is fine).
    { question: 'Does it hold nothing from outside the folder?', met: entries.length > 0 && entries.every((e) => /(^|\/)notes(\/|$)/.test(e) || e.endsWith('/')) },
  ]
}

function planFacts(r: JudgeRequest): Fact[] {
  const month = /'Team plan for (\w+)'/.exec(r.expected)?.[1] ?? '(no month in the rubric)'
  return [{ question: `Is the text "Team plan for ${month}" then "Owner: Dana Reyes"?`, met: sameLines(outputOf(r), [`Team plan for ${month}`, 'Owner: Dana Reyes']) }]
}

function findReplaceFacts(r: JudgeRequest): Fact[] {
  const actions = actionsOf(r)
  const typed = typedOf(r)
  return [
    { question: 'Was Find & Replace opened (Ctrl+H, or a click before typing the words)?', met: actions.includes('press ctrl+h') || actions.some((a) => a.startsWith('click')) },
    { question: "Were 'recieve' and 'receive' typed into it?", met: typed.includes('recieve') && typed.includes('receive') },
    { question: 'Was the document saved (Ctrl+S)?', met: actions.some((a) => /^press ctrl\+(shift\+)?s$/.test(a)) },
  ]
}
