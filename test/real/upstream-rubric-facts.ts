import { catalog, getProduct } from '../../fixtures/apps/omnizon/catalog.ts'
import type { Fact, JudgeRequest, JudgeRule } from '../../fixtures/model-server/openai/judge-policy.ts'
import { mentions } from '../../src/checks/answer.ts'

/**
 * The scripted grader's rules (a TEST DOUBLE for an LLM judge) for the llm_boolean rubrics of
 * REAL's own v1 tasks that agentest runs, each decided from agentest's catalog, never from the
 * mere presence of an answer.
 */
export const UPSTREAM_RUBRIC_RULES: JudgeRule[] = [
  // v1 omnizon-3: several listings of the Headphones category, each with a detail (its price).
  { expected: /list multiple headphone products from the Headphones category/, facts: (request) => headphones(answerOf(request)) },
  // v1 omnizon-5: several of the KTC monitor's own specifications, none of another monitor's.
  { expected: /multiple specifications of the KTC 24 inch 1500R Curved Gaming Monitor/, facts: (request) => ktcSpecs(answerOf(request)) },
]

const HEADPHONES = catalog.filter((product) => product.category === 'headphones')
const OTHERS = catalog.filter((product) => product.category !== 'headphones')
const name = (title: string) => title.split(',')[0]!

function headphones(answer: string): Fact[] {
  const named = HEADPHONES.filter((product) => mentions(answer, name(product.title)))
  return [
    { question: 'Are the products it lists all from the Headphones category?', met: !OTHERS.some((product) => mentions(answer, name(product.title))) },
    { question: 'Does it name at least two products of the Headphones category?', met: named.length >= 2 },
    { question: 'Does it give a basic detail (the price) of each product it names?', met: named.length > 0 && named.every((product) => mentions(answer, product.price)) },
  ]
}

const KTC = getProduct('p050')!
const KTC_SPECS: Record<string, string> = { Brand: KTC.brand, ...Object.fromEntries(KTC.specs.map((spec) => [spec.name, spec.value])) }

function ktcSpecs(answer: string): Fact[] {
  // "Name: value" lines; a named specification must have the KTC's value.
  const given = [...answer.matchAll(/^[\s*-]*([^:\n]+):\s*(.+)$/gm)].map((m) => [m[1]!.trim(), m[2]!.trim()] as const)
  const ktcOwn = given.filter(([name, value]) => KTC_SPECS[name] === value)
  const wrong = given.filter(([name, value]) => name in KTC_SPECS && KTC_SPECS[name] !== value)
  return [
    { question: 'Does it give at least two of the monitor\'s specifications (size, resolution, refresh rate...)?', met: ktcOwn.length >= 2 },
    { question: 'Are they the KTC monitor\'s, with no other monitor\'s value?', met: wrong.length === 0 },
  ]
}

function answerOf(request: JudgeRequest): string {
  return request.blocks.filter((block) => block.kind === 'answer').map((block) => block.text).join('\n')
}
