import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { moduleGraphHash, resolveLocal } from '../../src/cache/module-graph.ts'
import { parseSource } from '../../src/cache/source-file.ts'

function taskText(goal: string, check = `expect(answer).toBe('42')`): string {
  return `import { agentTest } from 'agentest'
import { helper } from './support.ts'

const test = agentTest({ id: 'a', app: 'omnizon', goal: '${goal}', solution: async () => helper() })

test('answers', async ({ run, expect }) => {
  const { answer } = await run()
  ${check}
})
`
}

/** A task importing ./support.ts, which imports ./deep (extension-less), which imports the task back. */
function project(): { dir: string; write(file: string, text: string): void; hash(): string | null } {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-graph-'))
  const write = (file: string, text: string) => writeFileSync(join(dir, file), text)
  write('a.task.ts', taskText('Say 42.'))
  write('support.ts', `import { deep } from './deep'\nimport type { Shape } from './types.ts'\nimport 'node:fs'\nexport const helper = (): Shape => deep()\n`)
  write('deep.ts', `import './a.task.ts'\nexport const deep = () => ({ n: 1 })\n`)
  write('types.ts', 'export interface Shape { n: number }\n')
  write('unrelated.ts', 'export const x = 1\n')
  return { dir, write, hash: () => moduleGraphHash(join(dir, 'a.task.ts'), { declarationOnly: true }) }
}

describe('the module-graph hash', () => {
  test('follows local imports transitively, through a cycle, and is stable', () => {
    const p = project()
    const before = p.hash()
    expect(before).toMatch(/^[0-9a-f]{64}$/)
    expect(p.hash()).toBe(before)

    p.write('deep.ts', `import './a.task.ts'\nexport const deep = () => ({ n: 2 })\n`)
    expect(p.hash(), 'a module two imports away').not.toBe(before)
  })

  test('ignores files it does not import, type-only imports and packages', () => {
    const p = project()
    const before = p.hash()
    p.write('unrelated.ts', 'export const x = 2\n')
    p.write('types.ts', 'export interface Shape { n: number; m?: string }\n')
    expect(p.hash()).toBe(before)
  })

  test("counts a task's declaration but not its test bodies (its checks are re-graded, not re-run)", () => {
    const p = project()
    const before = p.hash()
    p.write('a.task.ts', taskText('Say 42.', `expect(answer).toBe('43')`))
    expect(p.hash(), 'an edited check').toBe(before)
    p.write('a.task.ts', taskText('Say 43.'))
    expect(p.hash(), 'an edited goal').not.toBe(before)
    // Without declarationOnly (a user agent's module) every line counts.
    const whole = moduleGraphHash(join(p.dir, 'a.task.ts'))
    p.write('a.task.ts', taskText('Say 43.', `expect(answer).toBe('43')`))
    expect(moduleGraphHash(join(p.dir, 'a.task.ts'))).not.toBe(whole)
  })

  test("counts an edited reference solution or near miss (the oracle's run changes with it)", () => {
    const p = project()
    const before = p.hash()
    p.write('a.task.ts', taskText('Say 42.').replace('solution: async () => helper()', "solution: async () => { helper(); return 'wrong' }"))
    expect(p.hash(), 'an edited solution').not.toBe(before)
    p.write('a.task.ts', taskText('Say 42.').replace('solution: async () => helper() }', "solution: async () => helper(), near_misses: { 'off by one': async () => '41' } }"))
    expect(p.hash(), 'an added near miss').not.toBe(before)
  })

  test('does not depend on where the files are', () => {
    expect(project().hash()).toBe(project().hash())
  })

  test('an unreadable entry has no hash; an unresolved import is skipped', () => {
    const p = project()
    expect(moduleGraphHash(join(p.dir, 'missing.task.ts'))).toBeNull()
    p.write('support.ts', `import { gone } from './gone.ts'\nexport const helper = gone\n`)
    expect(p.hash()).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe('parsing a source file', () => {
  test('finds static, re-exported and dynamic imports, not type-only ones', () => {
    const text = [
      `import a from './a.ts'`,
      `import type { B } from './b.ts'`,
      `export { c } from './c.ts'`,
      `export type { D } from './d.ts'`,
      `export * from './e.ts'`,
      `const f = await import('./f.ts')`,
      `const g = await import(name)`,
      `// import h from './h.ts'`,
    ].join('\n')
    expect(parseSource('x.ts', text).imports).toEqual(['./a.ts', './c.ts', './e.ts', './f.ts'])
  })

  test('cuts the calls of tests bound to agentTest() under any names, and keeps the rest', () => {
    const text = `import { agentTest as declare } from 'agentest'
const QTY = 5
const buy = declare({ id: 'x', goal: 'Buy 5.' })
buy('buys', async ({ expect }) => { expect(QTY).toBe(5) })
`
    const { declaration } = parseSource('x.task.ts', text)
    expect(declaration).toContain(`const QTY = 5`)
    expect(declaration).toContain(`goal: 'Buy 5.'`)
    expect(declaration).not.toContain('buys')
  })

  test("cuts the judged checks of agentTest()'s options", () => {
    const declaration = (checks: string) =>
      parseSource('x.task.ts', `import { agentTest } from 'agentest'\nagentTest({ id: 'x', goal: 'Buy 5.', checks: [${checks}], max_steps: 9 })\n`).declaration
    expect(declaration(`{ rubric: 'bought five' }`)).toBe(declaration(`{ rubric: 'bought five kettles' }`))
    expect(declaration('')).toContain('max_steps: 9')
  })

  test('a file that does not parse counts whole, with no imports', () => {
    expect(parseSource('x.ts', 'const = ;')).toEqual({ imports: [], declaration: 'const = ;' })
    expect(parseSource('notes.txt', `import x from './y.ts'`).imports).toEqual([])
  })

  test('resolves specifiers as TypeScript does, never into packages', () => {
    const p = project()
    const from = join(p.dir, 'a.task.ts')
    expect(resolveLocal('./deep', from)).toBe(join(p.dir, 'deep.ts'))
    expect(resolveLocal('./deep.js', from)).toBe(join(p.dir, 'deep.ts'))
    expect(resolveLocal('agentest', from)).toBeNull()
    expect(resolveLocal('./nowhere', from)).toBeNull()
  })
})
