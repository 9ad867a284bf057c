import * as jmespath from 'jmespath'

/** A node of jmespath.js's syntax tree (what `compile` returns). */
export interface JmesNode {
  type: string
  name?: string
  value?: unknown
  children?: Array<JmesNode | number | null>
}

// @types/jmespath declares only `search`; `compile` is exported by the same module.
const lib = jmespath as unknown as { compile(expression: string): JmesNode; search(data: unknown, expression: string): unknown }

/** The query's syntax tree; throws the parser's message for a query REAL could not run either. */
export function compileQuery(query: string): JmesNode {
  return lib.compile(query)
}

/** What REAL's `jmespath_verify` gets: the value, or the error that makes the eval fail. */
export function runQuery(document: unknown, query: string): { value: unknown } | { error: string } {
  try {
    return { value: lib.search(document, query) ?? null }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * Python's `==` on JSON values, as REAL compares a query's result with `expected_value`: lists
 * in order, dicts by keys, `1 == 1.0`, and `True == 1` (a bool is an int in Python).
 */
export function pythonEquals(a: unknown, b: unknown): boolean {
  const number = (v: unknown) => (typeof v === 'boolean' ? Number(v) : v)
  if ((typeof a === 'number' || typeof a === 'boolean') && (typeof b === 'number' || typeof b === 'boolean')) return number(a) === number(b)
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => pythonEquals(item, b[i]))
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const [ka, kb] = [Object.keys(a), Object.keys(b)]
    const other = b as Record<string, unknown>
    return ka.length === kb.length && ka.every((key) => key in other && pythonEquals((a as Record<string, unknown>)[key], other[key]))
  }
  return a === b
}
