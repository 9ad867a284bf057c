import { readFileSync } from 'node:fs'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// docs/desktop.md's reference is how a newcomer writes a desktop task without reading the
// bundled suite: every export of the desktop helpers must be in it, named in inline code outside
// code blocks (`launchApp`, `expectWrittenBy(context, ...)`), and every function with its call.
const DOC = readFileSync(new URL('../../docs/desktop.md', import.meta.url), 'utf8')
const START = DOC.indexOf('## Desktop helpers: the reference')
const SECTION = DOC.slice(START, DOC.indexOf('\n## ', START + 1))
const SPANS = [...SECTION.replace(/^```[\s\S]*?^```/gm, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!)

function documented(name: string): boolean {
  return SPANS.some((span) => new RegExp(`^${name.replace(/[$]/g, '\\$')}(?![\\w$])`).test(span))
}

/** The names src/desktop-helpers/index.ts exports, and which of them are functions (values, not types or constants). */
function helperExports(): Array<{ name: string; type: boolean }> {
  const path = 'src/desktop-helpers/index.ts'
  const source = ts.createSourceFile(path, readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'), ts.ScriptTarget.Latest, true)
  return source.statements.flatMap((statement) =>
    ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)
      ? statement.exportClause.elements.map((e) => ({ name: e.name.text, type: statement.isTypeOnly || e.isTypeOnly }))
      : [],
  )
}

describe('docs/desktop.md documents the desktop helpers', () => {
  const exported = helperExports()

  it('the reference section is there, and the helpers are many', () => {
    expect(START).toBeGreaterThan(0)
    expect(exported.length).toBeGreaterThan(25)
  })

  it('names every export of src/desktop-helpers in inline code', () => {
    expect(exported.filter(({ name }) => !documented(name)).map(({ name }) => name)).toEqual([])
  })

  it('shows every helper function called, with its arguments', () => {
    const functions = exported.filter(({ name, type }) => !type && /^[a-z]/.test(name))
    expect(functions.filter(({ name }) => !SECTION.includes(`${name}(`)).map(({ name }) => name)).toEqual([])
  })

  it('finds an undocumented name (the rule is not vacuous)', () => {
    expect(documented('launchApp')).toBe(true)
    expect(documented('launchApps')).toBe(false)
    expect(documented('noSuchHelper')).toBe(false)
  })
})
