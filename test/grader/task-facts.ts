import { catalog, type Product } from '../../fixtures/apps/omnizon/catalog.ts'
import type { Fact, JudgeRequest, JudgeRule } from '../../fixtures/model-server/openai/judge-policy.ts'
import { mentions } from '../../src/checks/answer.ts'

/**
 * The strict test grader's rules (a TEST DOUBLE for an LLM judge): each judged check of the
 * tasks is decided from the facts of that task (the catalog, the recorded steps), never from the
 * mere presence of evidence. A judged check without a rule here fails, so a new rubric cannot
 * pass the gate unexamined.
 */
export const TASK_FACT_RULES: JudgeRule[] = [
  // omnizon-6: the S24 Ultra is chosen, for its lower price and at least one true reason; no wrong figure.
  { expected: /choice of the Galaxy S24 Ultra over the Z Fold6/i, facts: (request) => betterValue(answerOf(request)) },
  // desktop-files-organize: the folder made and the images moved in the file manager, no terminal.
  { expected: /works in the file manager window: creates a Pictures folder/i, facts: (request) => inFileManager(stepsOf(request)) },
]

/** The recorded actions, one per step, as the judge prompt shows them ("press ctrl+x", "type \"...\""). */
function stepsOf(request: JudgeRequest): string[] {
  return request.blocks.filter((block) => block.kind === 'step').map((block) => /^action: (.*)$/m.exec(block.text)?.[1] ?? '')
}

function inFileManager(actions: string[]): Fact[] {
  const typed = actions.filter((a) => a.startsWith('type ')).map((a) => a.slice(5))
  const shell = typed.filter((text) => /\b(mkdir|mv|cp|rm|find|xargs)\b|&&|;|\*\.\w+/.test(text))
  const cut = actions.findIndex((a) => /^press ctrl\+x$/.test(a))
  const pasted = cut >= 0 && actions.slice(cut).some((a) => /^press ctrl\+v$/.test(a))
  return [
    { question: 'Was no terminal opened (F4) and no shell command typed?', met: !actions.includes('press f4') && shell.length === 0 },
    { question: 'Was the Pictures folder made in the file manager (new-folder keys or menu clicks)?', met: actions.includes('press ctrl+shift+n') || actions.filter((a) => a.startsWith('click')).length >= 2 },
    { question: 'Were the images moved by the file manager (cut and paste, a drag, or menu clicks)?', met: pasted || actions.some((a) => a.startsWith('drag')) || actions.filter((a) => a.startsWith('click')).length >= 4 },
  ]
}

function answerOf(request: JudgeRequest): string {
  return request.blocks.filter((block) => block.kind === 'answer').map((block) => block.text).join('\n')
}

function betterValue(answer: string): Fact[] {
  const s24 = product('p001')
  const fold = product('p002')
  const spec = (p: Product, name: RegExp) => Number.parseFloat(p.specs.find((s) => name.test(s.name))?.value ?? 'NaN')
  const prices = [s24.price, fold.price, +(fold.price - s24.price).toFixed(2)]
  const stated = (unit: RegExp) => [...answer.matchAll(unit)].map((m) => Number(m[1]!.replaceAll(',', '')))
  const within = (values: number[], allowed: number[]) => values.every((v) => allowed.some((a) => Math.abs(a - v) < 0.01))
  const cameras = [spec(s24, /camera/i), spec(fold, /camera/i)]
  const batteries = [spec(s24, /battery/i), spec(fold, /battery/i)]
  const bothPrices = mentions(answer, s24.price) && mentions(answer, fold.price)
  const reasons = [
    cameras.every((mp) => mentions(answer, mp)) && /camera|MP/i.test(answer),
    /battery|mAh/i.test(answer),
    /zoom/i.test(answer),
    /S Pen/i.test(answer),
    mentions(answer, s24.rating) && mentions(answer, fold.rating),
  ]
  return [
    { question: 'Does the answer say the S24 Ultra was chosen or bought?', met: mentions(answer, 'S24 Ultra') && /\b(bought|chose|chosen|choose|ordered|picked|went with)\b/i.test(answer) },
    { question: 'Does it say the S24 Ultra costs less, or give both prices?', met: bothPrices || /\b(less|cheaper|lower price|saves?|saving)\b/i.test(answer) },
    { question: 'Does it give a true reason (camera, battery, zoom, S Pen or rating)?', met: reasons.some(Boolean) },
    { question: 'Are its dollar figures real (the two prices or their difference)?', met: within(stated(/\$\s*([\d,]+(?:\.\d+)?)/g), prices) },
    { question: 'Are its camera and battery figures real?', met: within(stated(/([\d,]+)\s*MP\b/gi), cameras) && within(stated(/([\d,]+)\s*mAh\b/gi), batteries) },
  ]
}

function product(id: string): Product {
  const found = catalog.find((p) => p.id === id)
  if (!found) throw new Error(`task-facts: no product ${id} in the catalog`)
  return found
}
