/**
 * REAL's Omnizon `/finish` layout, as far as agentest's clone has the same facts. REAL does not
 * document it; the paths come from its task queries and graders (see docs/real-tasks.md). A
 * query may touch only what is here: a path under `unmapped`, or one not named at all, has no
 * counterpart, and its eval is reported instead of run.
 */
export type Layout =
  | { kind: 'object'; fields: Record<string, Layout>; unmapped: Record<string, string>; closed: boolean }
  /** REAL's diffs key their entries by index ("0", "1", ...), so any key may hold one. */
  | { kind: 'map'; of: Layout }
  | { kind: 'list'; of: Layout }
  /** A scalar; `from` says which OmnizonFinish value fills it. */
  | { kind: 'value'; from: string }

const value = (from: string): Layout => ({ kind: 'value', from })
const map = (of: Layout): Layout => ({ kind: 'map', of })
const list = (of: Layout): Layout => ({ kind: 'list', of })
/**
 * An object; `closed` when REAL's object has exactly these fields (known from REAL's own task
 * files), so the whole object can be compared. An open one may only be read field by field.
 */
const object = (fields: Record<string, Layout>, options: { unmapped?: Record<string, string>; closed?: boolean } = {}): Layout => ({
  kind: 'object',
  fields,
  unmapped: options.unmapped ?? {},
  closed: options.closed ?? false,
})

const line = (of: string): Layout =>
  object({ id: value(`${of}.product_id`), quantity: value(`${of}.quantity`), price: value(`${of}.unit_price`) })

const NOT_DOCUMENTED = "its layout in REAL's state is not documented, so a query on it cannot be answered the way REAL would"

/** The paths agentest builds (src/real/document.ts), and the ones it knows it cannot. */
export const REAL_OMNIZON: Layout = object(
  {
    // v1: one entry per order placed.
    orderDetailsDiff: object(
      {
        added: map(
          object({
            order: object({
              cart: list(line('order.items[]')),
              selected_card: object(
                {
                  cardName: value('order.card.holder'),
                  cardNumber: value('order.card.number, in groups of four digits'),
                  month: value('order.card.exp_month, as a string'),
                  year: value('order.card.exp_year, as a string'),
                  security_code: value('order.card.cvc'),
                },
                { closed: true },
              ),
              selected_delivery: value('order.delivery.label'),
            }),
          }),
        ),
      },
      {
        unmapped: {
          updated: `changes to existing orders: ${NOT_DOCUMENTED}`,
          modified: `changes to existing orders: ${NOT_DOCUMENTED}`,
          deleted: `removed orders: ${NOT_DOCUMENTED}`,
        },
      },
    ),
    // v2: a diff of the whole store.
    initialfinaldiff: object(
      {
        added: object({
          order: object({
            orders: map(
              object(
                { items: list(line('order.items[]')), total: value('order.total'), orderNumber: value('order.id') },
                { unmapped: { date: "REAL's order date format is not documented; agentest's is an ISO time (placed_at)" } },
              ),
            ),
          }),
          cart: object({ cartDetails: map(line('final.cart[]')) }),
        }),
        updated: object(
          {
            router: object({ location: object({ pathname: value('final.location.path'), search: value('final.location.search') }) }),
            filter: object(
              { searchQuery: value('final.searches, the last one') },
              { unmapped: { searchInputValue: 'the text in the search box, sent or not: agentest records only the searches sent (final.searches)' } },
            ),
          },
          {
            unmapped: {
              miniCart: "REAL's mini-cart pop-up: agentest's Omnizon has none",
              config: "a run setting (REAL's /config removePopup), not the shopper's doing: agentest sets the pop-up from the task's popup option",
              order: `changes to existing orders: ${NOT_DOCUMENTED}`,
              cart: `changes to existing cart lines: ${NOT_DOCUMENTED}`,
            },
          },
        ),
      },
      { unmapped: { deleted: `removals from REAL's store: ${NOT_DOCUMENTED}` } },
    ),
  },
  { unmapped: { differences: `REAL's per-collection diffs: ${NOT_DOCUMENTED} for Omnizon` } },
)

/** Every scalar path of a layout and what fills it: `orderDetailsDiff.added.<n>.order.cart[].id`. */
export function mappedPaths(layout: Layout = REAL_OMNIZON, at = ''): Array<{ path: string; from: string }> {
  switch (layout.kind) {
    case 'value':
      return [{ path: at, from: layout.from }]
    case 'map':
      return mappedPaths(layout.of, `${at}.<n>`)
    case 'list':
      return mappedPaths(layout.of, `${at}[]`)
    case 'object':
      return Object.entries(layout.fields).flatMap(([key, inner]) => mappedPaths(inner, at ? `${at}.${key}` : key))
  }
}
