import { extname } from 'node:path'
import { parseAst } from 'rolldown/parseAst'
import { sha256 } from './hash.ts'

/** What the cache key needs from one source file. */
export interface ParsedSource {
  /** Specifiers of its runtime imports: static, re-exports and `import('literal')`; type-only ones change nothing. */
  imports: string[]
  /**
   * The text without the task's checks: the calls of tests declared by agentTest() and the
   * `checks:` of its options. A reused result is re-graded against the checks, so editing one
   * must not re-key it.
   */
  declaration: string
}

const LANGS = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.jsx': 'jsx' } as const

interface AstNode {
  type: string
  start: number
  end: number
  [field: string]: unknown
}

// By content, not by path: an edited file (watch mode) is parsed afresh, an unchanged one once.
const parsed = new Map<string, ParsedSource>()

/** Parses a source file's text; a file that is not code (or does not parse) has no imports and counts whole. */
export function parseSource(file: string, text: string): ParsedSource {
  const lang = LANGS[extname(file) as keyof typeof LANGS]
  if (!lang) return { imports: [], declaration: text }
  const memo = `${lang}:${sha256(text)}`
  let result = parsed.get(memo)
  if (!result) {
    result = parse(text, lang)
    parsed.set(memo, result)
  }
  return result
}

function parse(text: string, lang: (typeof LANGS)[keyof typeof LANGS]): ParsedSource {
  let nodes: AstNode[]
  try {
    nodes = allNodes(parseAst(text, { lang }))
  } catch {
    return { imports: [], declaration: text }
  }
  const imports = nodes.flatMap((node) => {
    const typeOnly = node.importKind === 'type' || node.exportKind === 'type'
    const source = ['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration', 'ImportExpression'].includes(node.type) && !typeOnly ? literal(node.source) : null
    return source === null ? [] : [source]
  })
  return { imports: [...new Set(imports)], declaration: withoutChecks(text, nodes) }
}

/**
 * Cuts `test(...)` calls, where `test` is bound to an agentTest(...) result, and the `checks`
 * property of agentTest()'s options (agentTest under any local name).
 */
function withoutChecks(text: string, nodes: AstNode[]): string {
  const factories = new Set(['agentTest'])
  for (const node of nodes) {
    if (node.type === 'ImportSpecifier' && name(node.imported) === 'agentTest') factories.add(name(node.local) ?? 'agentTest')
  }
  const tests = new Set<string>()
  for (const node of nodes) {
    if (node.type !== 'VariableDeclarator' || !isNode(node.init) || node.init.type !== 'CallExpression') continue
    const callee = name(node.init.callee)
    const bound = name(node.id)
    if (callee && bound && factories.has(callee)) tests.add(bound)
  }
  const cuts = nodes.flatMap((node): AstNode[] => {
    if (node.type !== 'CallExpression') return []
    const callee = name(node.callee) ?? ''
    if (tests.has(callee)) return [node]
    const options = Array.isArray(node.arguments) ? node.arguments[0] : null
    if (!factories.has(callee) || !isNode(options) || !Array.isArray(options.properties)) return []
    return options.properties.filter((p): p is AstNode => isNode(p) && p.type === 'Property' && (name(p.key) ?? literal(p.key)) === 'checks')
  })
  let kept = ''
  let from = 0
  for (const cut of cuts.sort((a, b) => a.start - b.start)) {
    if (cut.start < from) continue
    kept += text.slice(from, cut.start)
    from = cut.end
  }
  return kept + text.slice(from)
}

function allNodes(root: unknown): AstNode[] {
  const nodes: AstNode[] = []
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) visit(item)
    else if (value !== null && typeof value === 'object') {
      if (isNode(value)) nodes.push(value)
      for (const child of Object.values(value)) visit(child)
    }
  }
  visit(root)
  return nodes
}

function isNode(value: unknown): value is AstNode {
  return value !== null && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string'
}

function name(value: unknown): string | null {
  return isNode(value) && value.type === 'Identifier' && typeof value.name === 'string' ? value.name : null
}

function literal(value: unknown): string | null {
  return isNode(value) && value.type === 'Literal' && typeof value.value === 'string' ? value.value : null
}
