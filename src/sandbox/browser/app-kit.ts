import { z } from 'zod'
import type { BrowserUi } from '../../reference/browser-ui.ts'
import { describeZodError, InputError } from '../../errors/input-error.ts'
import type { WebApp } from './kind.ts'

/**
 * The typed view of an app's graded state that `app.finish()` returns. Empty here: an app that
 * has one adds it by declaration merging (Omnizon's is OmnizonView), so the core names no app.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AppView {}

/**
 * An app's orders, for the validity gate's shop near misses ("placed then cancelled", the
 * duplicate): an app that declares none gets them as not applicable, with that reason.
 */
export interface AppOrders {
  /** The ids of the orders placed during the task and not cancelled, read from the app's state. */
  placed(app: WebApp): Promise<readonly string[]>
  /** Cancels one through the app's pages, as a user would (every click a recorded step); absent: orders cannot be cancelled. */
  cancel?(ui: BrowserUi, id: string): Promise<void>
}

/**
 * What a hedging answer could list beside the right one, one line each (the validity gate's
 * hedger): a fixed list, or a function of the task's app, called after the reference solution
 * ran, that lists them from the app's state (`await app.state()`).
 */
export type AppCandidates = readonly string[] | ((app: WebApp) => readonly string[] | Promise<readonly string[]>)

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
  /** What its screens show that a hedging answer could list (Omnizon: every product with its price). */
  candidates?: AppCandidates
  /** Its orders, for the gate's "placed then cancelled" and duplicate near misses. */
  orders?: AppOrders
  /** The named starting states a task may ask for with `seed:`, to check the name when the task loads. */
  seeds?: readonly string[]
}

const fn = (what: string) => z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', `must be a function (${what})`)

/** A kit's fields as JavaScript may pass them: checked once, when it is registered. */
const KitShape = z
  .object({
    title: z.string().min(1).optional(),
    solutionParts: fn('ui => helpers').optional(),
    view: fn('state => typed view').optional(),
    configExtra: fn('fields => /config parameters').optional(),
    candidates: z.union([z.array(z.string().min(1)), fn('app => lines')], { error: 'a list of strings, or a function of the app that lists them from its state' }).optional(),
    orders: z.object({ placed: fn('app => ids of placed orders'), cancel: fn('(ui, id) => cancels it').optional() }).strict().optional(),
    seeds: z.array(z.string().min(1)).optional(),
  })
  .strict()

const kits = new Map<string, AppKit>()

/** Declares what an app adds to its tasks; its environment is declared like any other (environments:). */
export function registerAppKit(name: string, kit: AppKit): void {
  const checked = KitShape.safeParse(kit)
  if (!checked.success) throw InputError.bare(describeZodError(`${callerFile()}: registerAppKit("${name}")`, checked.error))
  kits.set(name, kit)
}

export function appKit(name: string): AppKit {
  return kits.get(name) ?? {}
}

/** The module that called registerAppKit, for the error's first word. */
function callerFile(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(1)
  const here = import.meta.filename
  for (const frame of frames) {
    const path = /(?:file:\/\/)?(\/[^():]+\.[cm]?[jt]sx?)/.exec(frame)?.[1]
    if (path && path !== here) return path.startsWith(`${process.cwd()}/`) ? path.slice(process.cwd().length + 1) : path
  }
  return 'an app kit'
}
