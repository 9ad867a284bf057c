import { compileQuery, type JmesNode } from './jmespath.ts'
import { REAL_OMNIZON, type Layout } from './layout.ts'

/** A part of REAL's state a query needs and agentest's document does not have. */
export interface Unreachable {
  path: string
  reason: string
}

/**
 * What a query's value can be, followed through the query without data: a mapped part of REAL's
 * layout (and where), a list of such, an object built by the query, or `free` (a literal, a
 * computed number, null, or a part already reported), which touches nothing of REAL's.
 */
type Shape =
  | { kind: 'real'; layout: Layout; path: string }
  | { kind: 'list'; of: Shape }
  | { kind: 'record'; fields: Record<string, Shape> }
  | { kind: 'union'; of: Shape[] }
  | { kind: 'free' }

const FREE: Shape = { kind: 'free' }
const UNKNOWN_PATH = 'not a part of REAL\'s Omnizon state that agentest maps (docs/real-tasks.md lists them)'
const WHOLE = "the whole object: REAL's has fields agentest does not map, so only its fields can be compared, one by one"

/** Functions whose arguments are only passed through (their value is compared later, if at all). */
const PASS_THROUGH = new Set(['not_null', 'reverse', 'to_array', 'sort_by'])
/** Functions that read their arguments whole: every part must be mapped. */
const READS_WHOLE = new Set(['abs', 'avg', 'ceil', 'contains', 'ends_with', 'floor', 'join', 'max', 'merge', 'min', 'sort', 'starts_with', 'sum', 'to_number', 'to_string'])

/**
 * The parts of REAL's state `query` reads that agentest cannot answer, each with why; empty
 * when the query runs on agentest's document as on REAL's. Throws for a query that does not
 * parse or calls a function JMESPath does not have.
 */
export function unreachable(query: string, layout: Layout = REAL_OMNIZON): Unreachable[] {
  const found = new Map<string, string>()
  const walker = new Walker((path, reason) => {
    if (!found.has(path)) found.set(path, reason)
  })
  walker.whole(walker.visit(compileQuery(query), { kind: 'real', layout, path: '' }))
  return [...found].map(([path, reason]) => ({ path, reason }))
}

class Walker {
  constructor(private readonly report: (path: string, reason: string) => void) {}

  visit(node: JmesNode, current: Shape): Shape {
    const [a, b, c] = (node.children ?? []).map((child) => (child && typeof child === 'object' ? child : null))
    switch (node.type) {
      case 'Identity':
      case 'Current':
        return current
      case 'Literal':
        return FREE
      case 'Field':
        return this.field(current, node.name!)
      case 'Subexpression':
      case 'IndexExpression':
      case 'Pipe':
        return this.visit(b!, this.visit(a!, current))
      case 'Index':
        return this.element(current) ?? FREE
      case 'Slice':
        return this.element(current) ? current : FREE
      case 'Flatten': {
        const inner = this.element(this.visit(a!, current))
        return inner ? { kind: 'list', of: this.element(inner) ?? inner } : FREE
      }
      case 'Projection':
      case 'FilterProjection': {
        const each = this.element(this.visit(a!, current))
        if (!each) return FREE
        if (c) this.visit(c, each)
        return { kind: 'list', of: this.visit(b!, each) }
      }
      case 'ValueProjection': {
        const each = this.values(this.visit(a!, current))
        return each ? { kind: 'list', of: this.visit(b!, each) } : FREE
      }
      case 'MultiSelectList':
        return { kind: 'list', of: union(node.children!.map((child) => this.visit(child as JmesNode, current))) }
      case 'MultiSelectHash':
        return { kind: 'record', fields: Object.fromEntries(node.children!.map((pair) => [(pair as JmesNode).name!, this.visit((pair as JmesNode).value as JmesNode, current)])) }
      case 'OrExpression':
      case 'AndExpression':
        return union([this.visit(a!, current), this.visit(b!, current)])
      case 'NotExpression':
        this.visit(a!, current)
        return FREE
      case 'Comparator':
        this.whole(this.visit(a!, current))
        this.whole(this.visit(b!, current))
        return FREE
      case 'Function':
        return this.call(node.name!, node.children as JmesNode[], current)
      case 'ExpressionReference':
        return FREE
      default:
        throw new Error(`unknown JMESPath node ${node.type}`)
    }
  }

  /** A value the query uses whole (compares, returns, sums): every part of it must be mapped. */
  whole(shape: Shape): void {
    switch (shape.kind) {
      case 'real': {
        const { layout, path } = shape
        if (layout.kind === 'object' && !layout.closed) this.report(path || '@', WHOLE)
        else if (layout.kind === 'object') for (const [key, inner] of Object.entries(layout.fields)) this.whole({ kind: 'real', layout: inner, path: `${path}.${key}` })
        else if (layout.kind !== 'value') this.whole({ kind: 'real', layout: layout.of, path: `${path}${layout.kind === 'map' ? '.*' : '[]'}` })
        return
      }
      case 'list':
        return this.whole(shape.of)
      case 'union':
        return shape.of.forEach((inner) => this.whole(inner))
      case 'record':
        return Object.values(shape.fields).forEach((inner) => this.whole(inner))
    }
  }

  private field(shape: Shape, name: string): Shape {
    if (shape.kind === 'union') return union(shape.of.map((inner) => this.field(inner, name)))
    if (shape.kind === 'record') return shape.fields[name] ?? FREE
    if (shape.kind !== 'real') return FREE
    const { layout } = shape
    const path = shape.path ? `${shape.path}.${segment(name)}` : segment(name)
    if (layout.kind === 'map') return { kind: 'real', layout: layout.of, path }
    // A field of a list or a scalar is null in REAL's state as in agentest's.
    if (layout.kind !== 'object') return FREE
    const inner = layout.fields[name]
    if (inner) return { kind: 'real', layout: inner, path }
    // A closed object has no other field in REAL's state either: null on both sides.
    if (layout.closed) return FREE
    this.report(path, layout.unmapped[name] ?? UNKNOWN_PATH)
    return FREE
  }

  /** The shape of a list's items; null when the value is not a list (a projection then gives null). */
  private element(shape: Shape): Shape | null {
    if (shape.kind === 'list') return shape.of
    if (shape.kind === 'union') {
      const items = shape.of.map((inner) => this.element(inner)).filter((inner) => inner !== null)
      return items.length ? union(items) : null
    }
    if (shape.kind === 'real' && shape.layout.kind === 'list') return { kind: 'real', layout: shape.layout.of, path: `${shape.path}[]` }
    return shape.kind === 'free' ? FREE : null
  }

  /** The shape of an object's values (`*`, `values()`): an open object's are not all mapped. */
  private values(shape: Shape): Shape | null {
    if (shape.kind === 'record') return union(Object.values(shape.fields))
    if (shape.kind === 'union') return union(shape.of.map((inner) => this.values(inner) ?? FREE))
    if (shape.kind !== 'real') return shape.kind === 'free' ? FREE : null
    const { layout, path } = shape
    if (layout.kind === 'map') return { kind: 'real', layout: layout.of, path: `${path}.*` }
    if (layout.kind !== 'object') return null
    if (!layout.closed) {
      this.report(path || '@', WHOLE)
      return FREE
    }
    return union(Object.entries(layout.fields).map(([key, inner]) => ({ kind: 'real', layout: inner, path: `${path}.${key}` })))
  }

  private call(name: string, args: JmesNode[], current: Shape): Shape {
    const refs = args.map((arg) => (arg.type === 'ExpressionReference' ? (arg.children![0] as JmesNode) : null))
    const values = args.map((arg, i) => (refs[i] ? FREE : this.visit(arg, current)))
    // An expression given by reference (&id) is read on each item of the list argument.
    const listArg = name === 'map' ? values[1] : values[0]
    const item = listArg ? (this.element(listArg) ?? FREE) : FREE
    const mapped = refs.map((ref) => (ref ? this.visit(ref, item) : null))
    switch (name) {
      case 'length':
      case 'keys':
        // A map's entries are all built; an object's keys include REAL's unmapped fields.
        if (values[0]?.kind === 'real' && values[0].layout.kind === 'object' && !values[0].layout.closed) this.report(values[0].path || '@', WHOLE)
        return FREE
      case 'type':
        return FREE
      case 'values':
        return { kind: 'list', of: this.values(values[0]!) ?? FREE }
      case 'map':
        return { kind: 'list', of: mapped[0] ?? FREE }
      case 'max_by':
      case 'min_by':
        mapped.forEach((shape) => shape && this.whole(shape))
        return item
      default:
        if (!PASS_THROUGH.has(name) && !READS_WHOLE.has(name)) throw new Error(`unknown function ${name}()`)
        // sort_by compares the keys it sorts on; the others read their arguments whole.
        mapped.forEach((shape) => shape && this.whole(shape))
        if (READS_WHOLE.has(name)) {
          values.forEach((shape) => this.whole(shape))
          return FREE
        }
        return union(values.filter((_, i) => !refs[i]))
    }
  }
}

function union(shapes: Shape[]): Shape {
  const kept = shapes.filter((shape) => shape.kind !== 'free')
  if (kept.length === 0) return FREE
  return kept.length === 1 ? kept[0]! : { kind: 'union', of: kept }
}

/** A key as a query writes it: `added."0"`. */
function segment(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : JSON.stringify(name)
}
