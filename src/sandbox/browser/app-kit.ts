import type { BrowserUi } from '../../reference/browser-ui.ts'

/**
 * The typed view of an app's graded state that `app.finish()` returns. Empty here: an app that
 * has one adds it by declaration merging (Omnizon's is OmnizonView), so the core names no app.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AppView {}

/** What an app adds to its browser tasks, beyond its declared environment. */
export interface AppKit {
  /** How messages name the app ("Omnizon"); its environment's name otherwise. */
  title?: string
  /** Helpers a reference solution may use on this app's pages (Omnizon's `shop`). */
  solutionParts?(ui: BrowserUi): object
  /** The typed view of its finish state, for `app.finish()`. */
  view?(state: unknown): AppView
  /** Extra /config parameters from the task's options (Omnizon's pop-up). */
  configExtra?(fields: { popup: boolean }): Record<string, string>
  /** What its screens show that a hedging answer could list beside the right one, one line each (the validity gate's hedger). */
  candidates?(): string[]
  /** The named starting states a task may ask for with `seed:`, to check the name when the task loads. */
  seeds?: readonly string[]
}

const kits = new Map<string, AppKit>()

/** Declares what an app adds to its tasks; its environment is declared like any other (environments:). */
export function registerAppKit(name: string, kit: AppKit): void {
  kits.set(name, kit)
}

export function appKit(name: string): AppKit {
  return kits.get(name) ?? {}
}
