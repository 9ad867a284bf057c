import '../../fixtures/apps/omnizon/kit.ts'
import { describe, expect, test } from 'vitest'
import { fileNameProblem, parseTaskSpec } from '../../src/task/spec.ts'
import { didYouMean } from '../../src/errors/did-you-mean.ts'

const FILE = 'tasks/omnizon/cart-1.task.ts'
const base = { id: 'cart-1', app: 'omnizon', goal: 'Add a kettle to the cart.' }
const refusal = (input: unknown, file = FILE, environments: string[] | null = null): string => {
  try {
    parseTaskSpec(input, file, environments)
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('accepted')
}

describe('a task file mistake is one line naming the file and the field', () => {
  test('a missing goal gets the README wording, not zod\'s', () => {
    const { goal: _goal, ...noGoal } = base
    expect(refusal(noGoal)).toBe(`${FILE}: agentTest(): goal: every task needs a goal`)
    expect(refusal({ ...base, goal: '  ' })).toBe(`${FILE}: agentTest(): goal: every task needs a goal`)
  })

  test('an unknown option says what was meant', () => {
    expect(refusal({ ...base, max_step: 5 })).toBe(`${FILE}: agentTest(): max_step: not an agentTest() option; did you mean "max_steps"?`)
    expect(refusal({ ...base, nearmisses: {} })).toBe(`${FILE}: agentTest(): nearmisses: not an agentTest() option; did you mean "near_misses"?`)
    expect(refusal({ ...base, colour: 'red' })).toMatch(/colour: not an agentTest\(\) option \(options: id, goal, .*near_misses/)
  })

  test('a near miss name that breaks the rule gets the rule', () => {
    const solve = async () => {}
    expect(refusal({ ...base, near_misses: { 'Wrong item': solve } })).toBe(
      `${FILE}: agentTest(): near_misses.Wrong item: "Wrong item" is not a valid name: a variant name is lowercase words, digits and hyphens, separated by spaces (e.g. "wrong item")`,
    )
    expect(refusal({ ...base, alternatives: { 'by_category': solve } })).toMatch(/alternatives\.by_category: "by_category" is not a valid name/)
  })

  test('desktop_image: a bundled image, any image name, or a Dockerfile folder beside the task; anything else is one line', () => {
    const desktop = { id: 'own-image', goal: 'Do it.', level: 'paper' }
    const file = 'test/data/desktop-tasks/own-image.task.ts'
    expect(parseTaskSpec({ ...desktop, desktop_image: 'agentest/desktop' }, file).desktop_image).toBe('agentest/desktop')
    expect(parseTaskSpec({ ...desktop, desktop_image: 'ghcr.io/acme/desktop:2.1' }, file).desktop_image).toBe('ghcr.io/acme/desktop:2.1')
    expect(parseTaskSpec({ ...desktop, desktop_image: '../desktop-images/with-motd' }, file).desktop_image).toBe('../desktop-images/with-motd')
    expect(refusal({ ...desktop, desktop_image: '../desktop-images/nowhere' }, file)).toBe(
      `${file}: agentTest(): desktop_image: ../desktop-images/nowhere is not a folder (a path is read relative to the task file)`,
    )
    expect(refusal({ ...desktop, desktop_image: '../agents' }, file)).toBe(`${file}: agentTest(): desktop_image: ../agents has no Dockerfile`)
    expect(refusal({ ...desktop, desktop_image: 'My Desktop!' }, file)).toMatch(/desktop_image: "My Desktop!" is neither a bundled image \(agentest\/desktop\), an image name, nor a path/)
  })

  test('app: an environment the config does not declare is one line with the declared ones', () => {
    const declared = ['omnizon', 'inbox', 'docs']
    expect(parseTaskSpec({ ...base, app: 'inbox' }, FILE, declared).app).toBe('inbox')
    expect(refusal({ ...base, app: 'inbx' }, FILE, declared)).toBe(
      `${FILE}: agentTest(): app: no environment named "inbx" (did you mean "inbox"?); declared: omnizon, inbox, docs (add it under environments: in agentest.config.yaml)`,
    )
    expect(refusal({ ...base, app: 'My App' })).toMatch(/app: environment names are lowercase words/)
  })

  test('an unknown seed names the seeds the clone has', () => {
    expect(refusal({ ...base, seed: 'past-order' })).toBe(`${FILE}: agentTest(): seed: Omnizon has no seed "past-order" (did you mean "past-orders"?); its seeds: default, past-orders`)
    expect(parseTaskSpec({ ...base, seed: 'past-orders' }, FILE).seed).toBe('past-orders')
  })

  test('the id must be the file name (or the file name with its suite prefix)', () => {
    expect(refusal({ ...base, id: 'cart-2' })).toBe(`${FILE}: agentTest(): id: "cart-2" differs from the file name: name the file cart-2.task.ts (or give the task the id "cart-1")`)
    expect(fileNameProblem('desktop-editor-note', 'tasks/desktop/editor-note.task.ts')).toBeNull()
    expect(fileNameProblem('omnizon-editor-note', 'tasks/desktop/editor-note.task.ts')).not.toBeNull()
    // A file named after its suite declares many of its tasks (a loader of YAML or JSON cases).
    expect(fileNameProblem('osuniverse-terminal-echo', 'tasks/osuniverse/osuniverse.task.ts')).toBeNull()
    expect(fileNameProblem('terminal-echo', 'tasks/osuniverse/osuniverse.task.ts')).not.toBeNull()
    // A custom include that does not use *.task.ts is not held to the rule.
    expect(fileNameProblem('anything', 'benchmarks/shop.bench.ts')).toBeNull()
  })
})

describe('didYouMean', () => {
  test('suggests a near name and nothing for a far one', () => {
    expect(didYouMean('max_step', ['max_steps', 'goal'])).toBe('max_steps')
    expect(didYouMean('GOAL', ['max_steps', 'goal'])).toBe('goal')
    expect(didYouMean('colour', ['max_steps', 'goal'])).toBeNull()
  })
})
