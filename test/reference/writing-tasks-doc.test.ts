import { readFileSync } from 'node:fs'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { getProduct, searchProducts } from 'agentest/omnizon'
import { TaskSpec } from '../../src/task/spec.ts'

// docs/writing-tasks.md is the task author's reference: every public name of the author's API
// must appear in it. The rule (stated in the doc): an inline code span that starts with the
// name, alone or after an owner and a dot: `addCard`, `OmnizonView.items(order)`; a member of
// `shop` or `ui` must be written with its owner, `shop.addCard(card)`, since bare names like
// `specs` or `price` also name other things.
const DOC = readFileSync(new URL('../../docs/writing-tasks.md', import.meta.url), 'utf8')
const SPANS = [...DOC.replace(/^```[\s\S]*?^```/gm, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!)

function documented(name: string, owner?: string): boolean {
  const escaped = name.replace(/[$]/g, '\\$')
  const prefix = owner ? `${owner}\\.` : '(?:[\\w$]+(?:\\(\\))?\\.)?'
  const starts = new RegExp(`^${prefix}${escaped}(?![\\w$])`)
  return SPANS.some((span) => starts.test(span))
}

function source(path: string): ts.SourceFile {
  const text = readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')
  return ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true)
}

const isHidden = (node: ts.Node) =>
  (ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : []).some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword)

/** A class's public members (methods, getters, properties, `readonly` constructor parameters) or an interface's. */
function members(path: string, name: string): string[] {
  const names: string[] = []
  const visit = (node: ts.Node) => {
    if ((ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)) && node.name?.text === name) {
      for (const member of node.members) {
        if (ts.isConstructorDeclaration(member)) {
          for (const p of member.parameters) if (ts.getModifiers(p)?.length && !isHidden(p) && ts.isIdentifier(p.name)) names.push(p.name.text)
        } else if (member.name && ts.isIdentifier(member.name) && !isHidden(member)) names.push(member.name.text)
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source(path))
  if (names.length === 0) throw new Error(`${path}: no ${name} declared`)
  return [...new Set(names)]
}

/** A module's exported names: `export { a, type B } from`, and exported declarations. */
function exportsOf(path: string): string[] {
  const names: string[] = []
  for (const statement of source(path).statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      names.push(...statement.exportClause.elements.map((e) => e.name.text))
    } else if (ts.getModifiers(statement as ts.HasModifiers)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      const named = statement as ts.DeclarationStatement
      if (named.name && ts.isIdentifier(named.name)) names.push(named.name.text)
    }
  }
  return names
}

const OWNED: Record<string, string> = { 'shop (OmnizonSteps)': 'shop', 'ui (BrowserUi)': 'ui' }
const API: Record<string, () => string[]> = {
  'shop (OmnizonSteps)': () => members('fixtures/apps/omnizon/steps.ts', 'OmnizonSteps'),
  'Purchase': () => members('fixtures/apps/omnizon/steps.ts', 'Purchase'),
  'NewCard': () => members('fixtures/apps/omnizon/steps.ts', 'NewCard'),
  'ui (BrowserUi)': () => members('src/reference/browser-ui.ts', 'BrowserUi'),
  'OmnizonView': () => members('fixtures/apps/omnizon/view.ts', 'OmnizonView'),
  'SolutionContext': () => members('src/task/spec.ts', 'SolutionContext'),
  // A task's context is the base every task gets and what its kind of sandbox adds.
  'TaskContext': () => [
    ...members('src/task/agent-test.ts', 'BaseTaskContext'),
    ...members('src/task/agent-test.ts', 'CommandParts'),
    ...members('src/sandbox/browser/kind.ts', 'BrowserParts'),
    ...members('src/sandbox/desktop/kind.ts', 'DesktopParts'),
  ],
  'RunResult': () => members('src/task/session.ts', 'RunResult'),
  'src/checks exports': () => exportsOf('src/checks/index.ts'),
  'Omnizon checks': () => exportsOf('fixtures/apps/omnizon/checks.ts'),
  'agentest/omnizon exports': () => exportsOf('fixtures/apps/omnizon/index.ts'),
  'agentTest() options (TaskSpec)': () => Object.keys(TaskSpec.shape),
}

describe('docs/writing-tasks.md documents the author API', () => {
  for (const [what, names] of Object.entries(API)) {
    it(`names every public member of ${what} in inline code`, () => {
      const listed = names()
      expect(listed.length).toBeGreaterThan(0)
      expect(listed.filter((name) => !documented(name, OWNED[what]))).toEqual([])
    })
  }

  it('finds an undocumented name (the rule is not vacuous)', () => {
    expect(documented('addCard')).toBe(true)
    expect(documented('noSuchMethodAnywhere')).toBe(false)
    // A name that only begins a longer identifier does not count.
    expect(documented('addCar')).toBe(false)
    // shop's and ui's members need their owner: `specs` alone is the Product field.
    expect(documented('specs')).toBe(true)
    expect(documented('specs', 'ui')).toBe(false)
  })

  it('lists only element ids the shop renders', () => {
    const views = ['layout', 'home', 'results', 'product', 'cart', 'checkout', 'orders', 'components'].map((v) => source(`fixtures/apps/omnizon/views/${v}.tsx`).text).join('\n')
    const start = DOC.indexOf('## Omnizon element ids')
    const section = DOC.slice(start, DOC.indexOf('\n## ', start + 1))
    const ids = [...section.matchAll(/`#([a-z][\w-]*)/g)].map((m) => m[1]!)
    expect(ids.length).toBeGreaterThan(40)
    // A fixed id is written id="x" (or listed in CARD_FIELDS); a templated one, `#x-<id>` here, is id={`x-${...}`} or id={`x${sfx}-...`}.
    const rendered = (id: string) =>
      views.includes(`id="${id}"`) || views.includes(`id: '${id}'`) || views.includes(`id={\`${id}`) || views.includes(`id={\`${id.replace(/-$/, '')}\${`)
    expect(ids.filter((id) => !rendered(id))).toEqual([])
  })

  it('the catalog query a task imports as agentest/omnizon answers as documented', () => {
    expect(searchProducts({ q: 'air fryer', sort: 'price-asc' }).items[0]?.id).toBe('p091')
    expect(getProduct('p091')?.price).toBe(49.99)
  })
})
