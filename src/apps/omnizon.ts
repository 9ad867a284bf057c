import type { APIRequestContext } from 'playwright'
import { StateClient } from '../environments/state-client.ts'
import { OMNIZON_ENVIRONMENT } from '../schema/environment.ts'
import {
  OmnizonFinish,
  type CartLine,
  type Order,
  type OmnizonState,
  type DiffEntry,
} from '../schema/omnizon.ts'

/** A read-only view over one `/finish` answer, with the questions task checks usually ask. */
export class OmnizonView {
  constructor(readonly finish: OmnizonFinish) {}

  get initial(): OmnizonState {
    return this.finish.initial
  }
  get final(): OmnizonState {
    return this.finish.final
  }
  get diff(): DiffEntry[] {
    return this.finish.diff
  }

  /** Orders placed during the task (not the seeded ones), oldest first. */
  get newOrders(): Order[] {
    const before = new Set(this.initial.orders.map((o) => o.id))
    return this.final.orders.filter((o) => !before.has(o.id))
  }

  /** The order placed last during the task, or null. */
  get lastOrder(): Order | null {
    return this.newOrders.at(-1) ?? null
  }

  /** Orders that were placed before and are cancelled now. */
  get cancelledOrders(): Order[] {
    const wasPlaced = new Set(this.initial.orders.filter((o) => o.status === 'placed').map((o) => o.id))
    return this.final.orders.filter((o) => o.status === 'cancelled' && wasPlaced.has(o.id))
  }

  get cart(): CartLine[] {
    return this.final.cart
  }

  get searches(): string[] {
    return this.final.searches
  }

  /** The path of the last page the shopper loaded, e.g. "/confirmation". */
  get path(): string {
    return this.final.location.path
  }

  /** Items of an order as `{ id, quantity }` pairs, sorted by id: the usual thing to compare. */
  static items(order: Order | null): Array<{ id: string; quantity: number }> {
    if (!order) return []
    return order.items
      .map((line) => ({ id: line.product_id, quantity: line.quantity }))
      .sort((a, b) => a.id.localeCompare(b.id))
  }

  /** Any other question, asked of the typed final and initial states. */
  query<T>(question: (state: { initial: OmnizonState; final: OmnizonState; diff: DiffEntry[] }) => T): T {
    return question({ initial: this.initial, final: this.final, diff: this.diff })
  }
}

/** The harness's side of Omnizon's `/config` + `/finish` contract, spoken through a browser context. */
export class OmnizonClient {
  private readonly client: StateClient

  constructor(
    readonly url: string,
    request: APIRequestContext,
  ) {
    this.client = new StateClient('omnizon', url, OMNIZON_ENVIRONMENT.state!, request)
  }

  /** Resets this browser context's shop session and seeds it. */
  async configure(options: { taskId: string; runId: string; seed?: string; removePopup?: boolean }): Promise<void> {
    const extra = options.removePopup !== undefined ? { remove_popup: String(options.removePopup) } : undefined
    await this.client.configure({ taskId: options.taskId, runId: options.runId, seed: options.seed, extra })
  }

  /** The session's initial and final state and their diff, validated against the schema. */
  async finish(): Promise<OmnizonView> {
    return omnizonView(await this.client.state())
  }
}

/** Omnizon's typed view of a `/finish` answer; one that does not match the contract is an error. */
export function omnizonView(state: unknown): OmnizonView {
  const parsed = OmnizonFinish.safeParse(state)
  if (!parsed.success) throw new Error(`omnizon /finish does not match omnizon.finish/v1: ${parsed.error.message}`)
  return new OmnizonView(parsed.data)
}
