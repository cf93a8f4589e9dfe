// The stylesheet of the acceptance report page, inlined into every page (no external asset): an audit
// document on screen, and an A4 document on paper with the status colours kept. A TS string rather than a
// .css?raw file, because test runners replace CSS imports with nothing.
export const REPORT_CSS = `
:root {
  --ink: #1b2330;
  --muted: #5b6676;
  --rule: #d9dee6;
  --paper: #ffffff;
  --desk: #eef1f5;
  --navy: #15294b;
  --pass: #1f7a45;
  --pass-bg: #e7f4ec;
  --fail: #b42318;
  --fail-bg: #fdecea;
  --blocked: #9a5b00;
  --blocked-bg: #fdf3e1;
  --warn: #7a5a00;
  --warn-bg: #fff8d6;
  --mono: ui-monospace, "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace;
  --sans: "Inter", "Segoe UI", "DejaVu Sans", "Liberation Sans", Helvetica, Arial, sans-serif;
}
* { box-sizing: border-box; }
html { background: var(--desk); }
body { margin: 0; color: var(--ink); font: 14px/1.5 var(--sans); -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.page { max-width: 940px; margin: 24px auto; background: var(--paper); padding: 40px 48px 28px; border: 1px solid var(--rule); box-shadow: 0 1px 3px rgba(20, 30, 50, .08); }
code, pre, .mono, time { font-family: var(--mono); font-size: 12.5px; }
.break { word-break: break-all; }
h1, h2, h3 { margin: 0; font-weight: 650; letter-spacing: -.01em; }

/* Masthead */
.masthead { border-top: 6px solid var(--navy); padding-top: 18px; margin: -40px -48px 0; padding-left: 48px; padding-right: 48px; padding-bottom: 20px; border-bottom: 1px solid var(--rule); }
.brand { font-size: 11.5px; letter-spacing: .14em; text-transform: uppercase; color: var(--muted); font-weight: 600; display: flex; align-items: center; gap: 8px; }
.brand .mark { width: 14px; height: 14px; border-radius: 3px; background: linear-gradient(135deg, var(--navy) 50%, #3d6bb3 50%); display: inline-block; }
.brand .sep { color: var(--rule); }
.masthead-row { display: flex; justify-content: space-between; align-items: flex-start; gap: 24px; margin-top: 14px; }
h1 { font-size: 26px; color: var(--navy); }
.subtitle { margin: 6px 0 0; color: var(--muted); }
.subtitle strong { color: var(--ink); }
.verdict { min-width: 150px; text-align: center; border: 2px solid; border-radius: 8px; padding: 8px 18px 10px; }
.verdict-label { display: block; font-size: 11px; letter-spacing: .14em; text-transform: uppercase; font-weight: 600; }
.verdict-value { display: block; font-size: 28px; font-weight: 800; letter-spacing: .06em; line-height: 1.15; }
.verdict-PASS { color: var(--pass); background: var(--pass-bg); }
.verdict-FAIL { color: var(--fail); background: var(--fail-bg); }
.verdict-BLOCKED { color: var(--blocked); background: var(--blocked-bg); }
.verdict-explain { margin: 10px 0 0; font-weight: 500; }

/* The notice that the page is not proof */
.notice { margin: 20px 0 4px; padding: 12px 16px; border-left: 4px solid var(--navy); background: #f3f6fb; color: var(--ink); }
.notice .cmd { display: block; margin-top: 8px; color: var(--navy); }

.block { margin-top: 28px; }
h2 { font-size: 15px; text-transform: uppercase; letter-spacing: .08em; color: var(--navy); padding-bottom: 6px; border-bottom: 1px solid var(--rule); margin-bottom: 14px; }
h2 .count { float: right; font-size: 12px; letter-spacing: 0; text-transform: none; color: var(--muted); font-weight: 500; }

/* Report details */
.meta { display: grid; grid-template-columns: 1fr 1fr; gap: 10px 28px; margin: 0; }
.meta > div { border-bottom: 1px dotted var(--rule); padding-bottom: 6px; }
.meta dt { font-size: 11.5px; color: var(--muted); text-transform: uppercase; letter-spacing: .06em; }
.meta dd { margin: 2px 0 0; font-weight: 500; }
.meta > div.wide { grid-column: 1 / -1; }
.meta.compact { grid-template-columns: 1fr; margin: 8px 0 4px; }

/* Status chips */
.status { display: inline-block; min-width: 70px; text-align: center; font: 700 11.5px/1 var(--sans); letter-spacing: .08em; padding: 5px 8px; border-radius: 4px; border: 1px solid; }
.status-PASS.status, .tally-item.status-PASS .status { color: var(--pass); background: var(--pass-bg); }
.status-WARN.status, .tally-item.status-WARN .status { color: var(--warn); background: var(--warn-bg); }
.status-FAIL.status, .tally-item.status-FAIL .status { color: var(--fail); background: var(--fail-bg); }
.status-BLOCKED.status, .tally-item.status-BLOCKED .status { color: var(--blocked); background: var(--blocked-bg); }
.status-UNKNOWN.status { color: var(--muted); }

/* Summary */
.tally { display: grid; grid-template-columns: repeat(4, 1fr); gap: 12px; margin-bottom: 16px; }
.tally-item { border: 1px solid var(--rule); border-radius: 6px; padding: 10px 12px; display: grid; grid-template-columns: auto 1fr; grid-template-rows: auto 1fr; column-gap: 10px; align-items: center; }
.tally-item .tally-legend { align-self: start; }
.tally-n { font-size: 24px; font-weight: 750; text-align: right; }
.tally-legend { grid-column: 1 / 3; font-size: 12px; color: var(--muted); margin-top: 4px; }
table.index { width: 100%; border-collapse: collapse; }
table.index th { text-align: left; font-size: 11.5px; color: var(--muted); text-transform: uppercase; letter-spacing: .06em; font-weight: 600; border-bottom: 1px solid var(--rule); padding: 6px 8px; }
table.index td { border-bottom: 1px solid #eef0f4; padding: 7px 8px; vertical-align: middle; }
table.index td.n { width: 36px; color: var(--muted); font-family: var(--mono); }
table.index td.s { width: 100px; text-align: right; }
.index-title { display: block; font-weight: 500; }
table.index code { color: var(--muted); font-size: 11.5px; }

/* Lines and their evidence */
.line { border: 1px solid var(--rule); border-left: 5px solid var(--muted); border-radius: 6px; padding: 14px 16px 10px; margin-bottom: 14px; break-inside: avoid; page-break-inside: avoid; }
.line.status-PASS { border-left-color: var(--pass); }
.line.status-WARN { border-left-color: var(--warn); }
.line.status-FAIL { border-left-color: var(--fail); }
.line.status-BLOCKED { border-left-color: var(--blocked); }
.line-head { display: flex; align-items: flex-start; gap: 12px; }
.num-badge { flex: none; width: 26px; height: 26px; border-radius: 50%; background: #f0f2f6; color: var(--muted); font: 600 12px/26px var(--mono); text-align: center; }
.line-title { flex: 1; }
h3 { font-size: 15px; }
.line-id { margin: 2px 0 0; color: var(--muted); font-size: 12px; }
.line-id code { color: var(--navy); }
.reason { margin: 10px 0 0; padding: 8px 12px; border-radius: 4px; background: #f7f8fa; }
.status-WARN .reason { background: var(--warn-bg); }
.status-FAIL .reason { background: var(--fail-bg); }
.status-BLOCKED .reason { background: var(--blocked-bg); }
dl.evidence { display: grid; grid-template-columns: 150px 1fr; gap: 6px 14px; margin: 12px 0 4px; }
dl.evidence > dt { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .05em; padding-top: 1px; }
dl.evidence > dd { margin: 0; min-width: 0; }
dl.kv { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; font-size: 12.5px; }
dl.kv dt { font-family: var(--mono); color: #33507a; font-size: 12px; }
dl.kv dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
dl.kv dl.kv { border-left: 2px solid #e6e9ef; padding-left: 10px; }
ol.items { margin: 0; padding-left: 20px; }
ol.items > li { margin-bottom: 4px; }
ul.inline { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 10px; }
.str, .num { font-family: var(--mono); font-size: 12px; overflow-wrap: anywhere; }
.bool-true { color: var(--pass); font-family: var(--mono); font-weight: 600; font-size: 12px; }
.bool-false { color: var(--fail); font-family: var(--mono); font-weight: 600; font-size: 12px; }
.null { color: var(--muted); font-style: italic; font-size: 12px; }
pre { margin: 0; white-space: pre-wrap; word-break: break-all; background: #f6f7f9; border: 1px solid #eceff3; border-radius: 4px; padding: 6px 8px; }

/* How to verify */
.verify ol { padding-left: 20px; margin: 0; }
.verify li { margin-bottom: 10px; }
.cmd-block { margin: 6px 0; background: var(--navy); color: #fff; border: 0; padding: 10px 12px; font-size: 13px; }
.sig { margin: 14px 0 0; font-size: 12px; color: var(--muted); }
.sig span { display: block; text-transform: uppercase; letter-spacing: .06em; font-size: 11px; }
.sig code { color: var(--ink); font-size: 11.5px; }

.foot { margin-top: 30px; padding-top: 10px; border-top: 1px solid var(--rule); color: var(--muted); font-size: 11.5px; text-align: center; }

@media (max-width: 720px) {
  .page { padding: 24px 18px; margin: 0; border: 0; }
  .masthead { margin: -24px -18px 0; padding-left: 18px; padding-right: 18px; }
  .masthead-row { flex-direction: column; }
  .meta, .tally { grid-template-columns: 1fr; }
  dl.evidence { grid-template-columns: 1fr; }
}

@page { size: A4; margin: 14mm 12mm 16mm; }
@media print {
  html { background: #fff; }
  body { font-size: 11.5px; }
  .page { max-width: none; margin: 0; padding: 0; border: 0; box-shadow: none; }
  .masthead { margin: 0; padding: 10px 0 14px; }
  .block { margin-top: 18px; }
  h2 { break-after: avoid; page-break-after: avoid; }
  table.index tr, .tally, .meta > div { break-inside: avoid; page-break-inside: avoid; }
  .verify { break-before: auto; }
  pre { white-space: pre-wrap; }
}
`;
