import { CSS } from '../report/styles.ts'

/** The run report's stylesheet (colours, header, table, badges), so both pages look alike, plus the board's own rules. */
export const LEADERBOARD_CSS = `${CSS}
.wrap.wide { max-width: 1600px; }
.board-note { margin: 12px 0 0; font-size: 13.5px; color: var(--muted); max-width: 900px; }
.tools { display: flex; align-items: center; gap: 12px; margin: 0 0 12px; }
.tools input { font: inherit; font-size: 14px; padding: 6px 12px; border: 1px solid var(--border); border-radius: 8px; background: var(--card); color: var(--fg); width: min(420px, 100%); }
.tools .count { color: var(--muted); font-size: 13.5px; }
.table-card.scroll { overflow-x: auto; }
table.board th button { font: inherit; color: inherit; text-transform: inherit; letter-spacing: inherit; background: none; border: 0; padding: 0; cursor: pointer; }
table.board th[aria-sort="ascending"] button::after { content: " ▲"; }
table.board th[aria-sort="descending"] button::after { content: " ▼"; }
table.board th.num button { text-align: right; }
table.board td { vertical-align: top; }
table.board .who { font-weight: 600; white-space: nowrap; }
table.board th, table.board td { padding-left: 8px; padding-right: 8px; }
table.board th { letter-spacing: .03em; }
table.board details { white-space: nowrap; }
table.board details.partial { white-space: normal; }
table.board details.partial ul { text-align: left; max-height: 240px; overflow: auto; }
table.board .model, table.board .grader { font-family: var(--mono); font-size: 13px; white-space: nowrap; }
table.board th { white-space: nowrap; }
table.board details summary { font-size: 12.5px; }
table.board ul { margin: 4px 0 0; padding-left: 18px; font-size: 12.5px; }
.rate { font-weight: 650; font-variant-numeric: tabular-nums; }
.ci.n { color: var(--faint); }
.ci { font-size: 12px; color: var(--muted); font-variant-numeric: tabular-nums; white-space: nowrap; }
.ci-bar { position: relative; display: block; height: 6px; margin: 4px 0 2px auto; width: 72px; background: var(--soft); border-radius: 3px; }
.ci-bar .range { position: absolute; top: 0; bottom: 0; background: color-mix(in srgb, var(--accent) 35%, transparent); border-radius: 3px; }
.ci-bar .point { position: absolute; top: -2px; width: 2px; height: 10px; margin-left: -1px; background: var(--accent); }
.partial summary { color: var(--timeout); font-weight: 600; }
tr[data-coverage="partial"] td.rate-cell { color: var(--muted); }
table.board td.coverage { text-align: right; min-width: 110px; max-width: 150px; font-variant-numeric: tabular-nums; }
.suites { font-size: 12px; color: var(--muted); }
`
