import type { SandboxFields, SandboxKind } from './kind.ts'
import { browserKind } from './browser/kind.ts'
import { desktopKind } from './desktop/kind.ts'

const kinds = new Map<string, SandboxKind<object, unknown>>()

/** Adds a kind of sandbox; a task asks for it with `sandbox: { kind: '<name>' }`. Later names replace earlier ones. */
export function registerSandboxKind<Parts extends object, Options>(kind: SandboxKind<Parts, Options>): void {
  kinds.set(kind.name, kind as unknown as SandboxKind<object, unknown>)
}

registerSandboxKind(browserKind)
registerSandboxKind(desktopKind)

/** The names of the registered kinds, for messages. */
export function sandboxKindNames(): string[] {
  return [...kinds.keys()]
}

/** The kind a task's fields ask for: named under `sandbox:`, else the one that claims them; null if none does. */
export function sandboxKindFor(fields: SandboxFields): SandboxKind<object, unknown> | null {
  if (fields.sandbox) return kinds.get(fields.sandbox.kind) ?? null
  return [...kinds.values()].find((kind) => kind.claims(fields)) ?? null
}

/** The kind's options of a task, parsed by the kind's schema (its own fields under `sandbox:` but `kind`). */
export function sandboxOptions(kind: SandboxKind<object, unknown>, fields: SandboxFields): unknown {
  const { kind: _name, ...options } = fields.sandbox ?? { kind: kind.name }
  return kind.options ? kind.options.parse(options) : options
}
