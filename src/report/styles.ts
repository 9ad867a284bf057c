/** The report's stylesheet, inlined into report.html: system fonts only, light and dark. */
export const CSS = `
:root {
  --fg: #1f2328; --muted: #59636e; --faint: #818b98; --bg: #f6f8fa; --card: #fff; --border: #d1d9e0; --soft: #eef1f4;
  --accent: #0969da;
  --pass: #1a7f37; --pass-bg: #dafbe1; --fail: #cf222e; --fail-bg: #ffebe9; --error: #bc4c00; --error-bg: #fff1e5;
  --timeout: #9a6700; --timeout-bg: #fff8c5; --skip: #59636e; --skip-bg: #eef1f4; --unscored: #8250df; --unscored-bg: #fbefff;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --fg: #e6edf3; --muted: #9198a1; --faint: #6e7681; --bg: #0d1117; --card: #151b23; --border: #3d444d; --soft: #212830;
    --accent: #4493f8;
    --pass: #3fb950; --pass-bg: #12261e; --fail: #f85149; --fail-bg: #2d1214; --error: #db6d28; --error-bg: #2b1a0f;
    --timeout: #d29922; --timeout-bg: #272115; --skip: #9198a1; --skip-bg: #212830; --unscored: #ab7df8; --unscored-bg: #221a33;
  }
}
* { box-sizing: border-box; }
html { scroll-padding-top: 64px; }
body {
  margin: 0; background: var(--bg); color: var(--fg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  -webkit-font-smoothing: antialiased;
}
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
code, pre, .mono { font-family: var(--mono); font-size: 13px; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
h1, h2, h3, h4 { line-height: 1.25; margin: 0; }
.wrap { max-width: 1200px; margin: 0 auto; padding: 0 24px; }

/* Run header */
.run-head { background: var(--card); border-bottom: 1px solid var(--border); padding: 28px 0 24px; }
.brand { font-size: 12px; letter-spacing: .08em; text-transform: uppercase; color: var(--muted); font-weight: 600; }
.run-head h1 { font-size: 26px; margin: 4px 0 6px; font-weight: 650; overflow-wrap: anywhere; }
.run-meta { color: var(--muted); display: flex; flex-wrap: wrap; gap: 4px 18px; font-size: 14px; }
.run-meta b { color: var(--fg); font-weight: 600; }
.stats { display: grid; grid-template-columns: repeat(auto-fill, minmax(175px, 1fr)); gap: 12px; margin-top: 20px; }
.stat { border: 1px solid var(--border); border-radius: 10px; padding: 10px 14px; background: var(--bg); }
.stat .label { font-size: 12px; color: var(--muted); text-transform: uppercase; letter-spacing: .05em; font-weight: 600; }
.stat .value { font-size: 24px; font-weight: 650; font-variant-numeric: tabular-nums; }
.stat .sub { font-size: 12.5px; color: var(--muted); }
.stat.big { border-color: var(--accent); }
.set-aside { margin: 12px 0 0; font-size: 13.5px; color: var(--muted); }
.interrupted { margin: 12px 0 0; padding: 8px 12px; border-left: 4px solid #b45309; background: #fef3c7; color: #78350f; font-size: 13.5px; }
.tally { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 6px; }

/* Filter bar */
.bar { position: sticky; top: 0; z-index: 5; background: color-mix(in srgb, var(--bg) 88%, transparent); backdrop-filter: blur(6px); border-bottom: 1px solid var(--border); }
.bar .wrap { display: flex; align-items: center; gap: 8px; padding-top: 10px; padding-bottom: 10px; }
.bar .title { font-weight: 600; margin-right: auto; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.bar button {
  font: inherit; font-size: 13.5px; border: 1px solid var(--border); background: var(--card); color: var(--fg);
  padding: 4px 12px; border-radius: 999px; cursor: pointer;
}
.bar button[aria-pressed="true"] { background: var(--fg); color: var(--card); border-color: var(--fg); }
.bar button .n { opacity: .7; margin-left: 4px; font-variant-numeric: tabular-nums; }
body[data-filter="failed"] [data-outcome]:not([data-outcome="failed"]),
body[data-filter="passed"] [data-outcome]:not([data-outcome="passed"]),
body[data-filter="skipped"] [data-outcome]:not([data-outcome="skipped"]) { display: none; }

/* Task table */
main.wrap { padding-top: 24px; padding-bottom: 64px; }
.table-card { background: var(--card); border: 1px solid var(--border); border-radius: 12px; overflow: hidden; margin-bottom: 28px; }
table.tasks { width: 100%; border-collapse: collapse; font-size: 14px; }
table.tasks th { text-align: left; font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); font-weight: 600; background: var(--soft); padding: 8px 14px; }
table.tasks td { padding: 9px 14px; border-top: 1px solid var(--border); vertical-align: top; }
table.tasks td.num, table.tasks th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.tasks tr:hover td { background: var(--soft); }
table.tasks .name { color: var(--muted); font-size: 13px; }
.marks { font-variant-numeric: tabular-nums; white-space: nowrap; }
.marks span + span { margin-left: 8px; }

/* Badges */
.badge { display: inline-block; font-size: 12px; font-weight: 650; padding: 1px 9px; border-radius: 999px; white-space: nowrap; border: 1px solid transparent; text-transform: lowercase; }
.b-passed { color: var(--pass); background: var(--pass-bg); border-color: color-mix(in srgb, var(--pass) 30%, transparent); }
.b-failed { color: var(--fail); background: var(--fail-bg); border-color: color-mix(in srgb, var(--fail) 30%, transparent); }
.b-error { color: var(--error); background: var(--error-bg); border-color: color-mix(in srgb, var(--error) 30%, transparent); }
.b-timeout { color: var(--timeout); background: var(--timeout-bg); border-color: color-mix(in srgb, var(--timeout) 30%, transparent); }
.b-skipped, .b-aborted, .b-faulted { color: var(--skip); background: var(--skip-bg); border-color: var(--border); }
.b-unscored { color: var(--unscored); background: var(--unscored-bg); border-color: color-mix(in srgb, var(--unscored) 30%, transparent); }
.ok { color: var(--pass); } .bad { color: var(--fail); } .none { color: var(--faint); }

/* Task sections */
.task { background: var(--card); border: 1px solid var(--border); border-radius: 12px; margin-bottom: 28px; overflow: hidden; }
.task-head { padding: 16px 20px; border-bottom: 1px solid var(--border); display: flex; gap: 12px; align-items: flex-start; }
.task-head .titles { flex: 1; min-width: 0; }
.task-head h2 { font-size: 19px; font-weight: 650; overflow-wrap: anywhere; }
.task-head h2 .badge { vertical-align: 3px; margin-left: 6px; }
.task-head .name { color: var(--muted); margin-top: 2px; }
.task-head .top { font-size: 13px; color: var(--muted); white-space: nowrap; }
.tags { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 8px; }
.tag { font-size: 12px; color: var(--muted); background: var(--soft); border-radius: 6px; padding: 1px 8px; }
.task-body { padding: 18px 20px 20px; display: grid; gap: 18px; }
.section-title { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); font-weight: 650; margin-bottom: 8px; }
.goal { font-size: 16px; border-left: 3px solid var(--accent); padding: 4px 0 4px 14px; white-space: pre-wrap; overflow-wrap: anywhere; }
.box { border: 1px solid var(--border); border-radius: 8px; padding: 10px 14px; background: var(--bg); overflow-wrap: anywhere; }
.box.answer { white-space: pre-wrap; }
.box.error { border-color: color-mix(in srgb, var(--fail) 45%, transparent); background: var(--fail-bg); }
.box.error .kind { font-weight: 650; color: var(--fail); margin-right: 6px; }
.facts { display: flex; flex-wrap: wrap; gap: 8px 32px; font-size: 14px; }
.facts div > span:first-child { display: block; font-size: 12px; color: var(--muted); }
.facts .v { font-variant-numeric: tabular-nums; }
.muted { color: var(--muted); }
details > summary { cursor: pointer; color: var(--muted); font-size: 13.5px; }
details[open] > summary { margin-bottom: 6px; }

/* Checks */
ul.checks { list-style: none; margin: 0; padding: 0; border: 1px solid var(--border); border-radius: 8px; overflow: hidden; }
ul.checks > li { padding: 9px 14px; display: grid; grid-template-columns: 22px 1fr; gap: 0 6px; }
ul.checks > li + li { border-top: 1px solid var(--border); }
ul.checks > li.c-fail { background: color-mix(in srgb, var(--fail-bg) 60%, transparent); }
.mark { font-weight: 700; font-size: 15px; line-height: 1.45; }
.check-name { font-weight: 550; overflow-wrap: anywhere; }
.check-msg { color: var(--muted); white-space: pre-wrap; overflow-wrap: anywhere; font-size: 14px; }
.check-diff, .check-values pre { font-family: var(--mono); font-size: 12.5px; background: var(--bg); border: 1px solid var(--border); border-radius: 6px; padding: 6px 10px; margin: 6px 0 0; max-height: 420px; overflow: auto; }
.check-values { display: grid; grid-template-columns: max-content 1fr; gap: 4px 10px; margin: 6px 0 0; font-size: 13px; }
.check-values dt { font-weight: 600; padding-top: 7px; } .check-values dd { margin: 0; } .check-values pre { margin: 0; }
.d-exp { color: var(--pass); } .d-rec { color: var(--fail); }
.judge { grid-column: 2; margin-top: 6px; border-left: 2px solid var(--border); padding-left: 12px; font-size: 14px; }
.judge .asked { color: var(--muted); }
.judge .asked q { color: var(--fg); font-style: italic; }
.vote { margin-top: 6px; }
.vote .model { font-family: var(--mono); font-size: 12.5px; background: var(--soft); border-radius: 5px; padding: 0 6px; }
.vote .comment { white-space: pre-wrap; overflow-wrap: anywhere; margin-top: 2px; }
ul.checklist { list-style: none; padding: 0; margin: 4px 0 0; }
ul.checklist li { display: grid; grid-template-columns: 18px 1fr; gap: 4px; font-size: 13.5px; }
ul.checklist .q { font-weight: 550; }
ul.checklist .a { color: var(--muted); }

/* Command outputs */
.cmd { border: 1px solid var(--border); border-radius: 8px; overflow: hidden; }
.cmd + .cmd { margin-top: 10px; }
.cmd .cmd-head { display: flex; gap: 10px; justify-content: space-between; padding: 6px 12px; background: var(--soft); font-family: var(--mono); font-size: 13px; }
.cmd .cmd-head code { overflow-wrap: anywhere; }
.cmd pre { padding: 10px 12px; max-height: 320px; overflow: auto; background: var(--bg); }

/* Steps */
.steps { display: grid; grid-template-columns: repeat(auto-fill, minmax(250px, 1fr)); gap: 14px; }
.step { border: 1px solid var(--border); border-radius: 10px; overflow: hidden; background: var(--card); display: flex; flex-direction: column; }
.step.final { border-color: var(--accent); box-shadow: 0 0 0 1px var(--accent) inset; }
.step.has-error { border-color: var(--fail); }
.shot { display: block; background: var(--soft); aspect-ratio: 16 / 10; border-bottom: 1px solid var(--border); }
.shot img { width: 100%; height: 100%; object-fit: contain; object-position: top; display: block; }
.shot.missing { display: grid; place-items: center; color: var(--faint); font-size: 13px; }
.shot.said { margin: 0; padding: 10px 12px; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 13px; color: var(--fg); background: var(--bg); }
.step-body { padding: 8px 12px 10px; font-size: 13.5px; display: grid; gap: 3px; }
.step-top { display: flex; gap: 8px; align-items: baseline; }
.step-no { font-weight: 700; font-variant-numeric: tabular-nums; }
.step-at { margin-left: auto; color: var(--faint); font-size: 12px; font-variant-numeric: tabular-nums; white-space: nowrap; }
.action { font-family: var(--mono); font-size: 12.5px; overflow-wrap: anywhere; }
.thought { color: var(--muted); font-style: italic; white-space: pre-wrap; overflow-wrap: anywhere; }
.url { color: var(--faint); font-size: 12px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.step-error { color: var(--fail); white-space: pre-wrap; overflow-wrap: anywhere; }
.model-call { font-size: 12px; margin-top: 4px; }
.model-call pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 240px; overflow: auto; margin: 4px 0; }
.empty { color: var(--faint); font-style: italic; }
footer { color: var(--faint); font-size: 12.5px; text-align: center; padding: 0 0 32px; }
@media (max-width: 720px) {
  .wrap { padding: 0 14px; }
  table.tasks .hide-sm { display: none; }
  .task-head { flex-direction: column; }
}
@media print {
  .bar { display: none; }
  .task { break-inside: avoid-page; }
}
`
