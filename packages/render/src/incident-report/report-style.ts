// The report page's one style sheet, inline: the page's policy allows it by its hash
// (report-csp.ts), so it must be one constant text. System fonts only: the page loads none.
//
// The incidents' table is laid out as a grid per row, each row skipped while off screen
// (`content-visibility: auto`): a table of ten thousand rows laid out as a table took seconds in
// Chromium, at load and at each sort, where this lays out the rows in view (measured in
// test/bench/report.ts). The elements stay a table's, for reading and for assistive technology.

/** The report page's CSS. */
export const REPORT_STYLE = `
:root{color-scheme:light dark;--fg:#1d2330;--muted:#5d6677;--bg:#fff;--panel:#f4f6f9;--line:#d9dee7;--critical:#c62828;--warning:#e08600;--info:#1e78d7;--unknown:#7b8494;--accent:#3558c8}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ef;--muted:#a3abb9;--bg:#14171d;--panel:#1d2129;--line:#343a46;--accent:#8aa4ff}}
*{box-sizing:border-box}
body{margin:0;padding:24px 32px 48px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Open Sans",sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:32px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}h3{font-size:14px;margin:0 0 6px}
.meta{color:var(--muted);margin:0}
.tiles{display:flex;flex-wrap:wrap;gap:12px;margin:16px 0}
.tile{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:10px 16px;min-width:150px}
.tile b{display:block;font-size:24px}.tile span{color:var(--muted);font-size:12px}
.note{color:var(--muted);font-size:13px}
code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere}
table{border-collapse:collapse;font-size:13px}
th,td{padding:3px 8px;text-align:left;border-bottom:1px solid var(--line);vertical-align:top}
thead th{background:var(--panel)}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.breakdowns{display:flex;flex-wrap:wrap;gap:24px}
.breakdown th[scope=row]{font-weight:normal;max-width:260px;overflow-wrap:anywhere}
svg{display:block;max-width:100%;height:auto}
svg.bar{display:inline-block;vertical-align:middle}
.bar .p90{fill:var(--accent);fill-opacity:.3}.bar .p50{fill:var(--accent)}
.timeline{background:var(--panel);border:1px solid var(--line);border-radius:6px}
.timeline .tick{stroke:var(--line);fill:var(--muted);font-size:11px}
.timeline text.tick{stroke:none}
.sev-critical{fill:var(--critical)}.sev-warning{fill:var(--warning)}.sev-info{fill:var(--info)}.sev-unknown{fill:var(--unknown)}
rect.open{fill-opacity:.45}
.legend span{display:inline-block;margin-right:14px}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px;border-radius:2px}
.legend .c{background:var(--critical)}.legend .w{background:var(--warning)}.legend .i{background:var(--info)}.legend .o{background:var(--critical);opacity:.5}
.incidents,.incidents thead,.incidents tbody{display:block}
.incidents tr{display:grid;grid-template-columns:minmax(0,2.9fr) minmax(0,1.1fr) minmax(0,.8fr) minmax(0,3fr) minmax(0,.9fr) minmax(0,1fr) minmax(0,1fr) minmax(0,1fr) minmax(0,.9fr) minmax(0,.6fr) minmax(0,.6fr) minmax(0,.8fr)}
.incidents thead{position:sticky;top:0;z-index:1}
.incidents tbody tr{content-visibility:auto;contain-intrinsic-size:auto 24px}
.incidents td:nth-child(-n+4){overflow-wrap:anywhere}
.incidents td:first-child{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.incidents td:nth-child(n+8),.incidents th:nth-child(n+8){text-align:right;font-variant-numeric:tabular-nums}
.incidents th button{all:unset;cursor:pointer;font-weight:600}
.incidents th button::after{content:" ↕";color:var(--muted);font-weight:normal}
.incidents th[aria-sort=ascending] button::after{content:" ▲";color:var(--fg)}
.incidents th[aria-sort=descending] button::after{content:" ▼";color:var(--fg)}
.incidents th button:focus-visible{outline:2px solid var(--accent)}
.incidents caption{display:block;text-align:left;color:var(--muted);padding:4px 8px}
.s-critical{color:var(--critical);font-weight:600}.s-warning{color:var(--warning)}.s-info{color:var(--info)}
.scroll{max-height:70vh;overflow:auto;border:1px solid var(--line);border-radius:6px}
details{border-bottom:1px solid var(--line);padding:4px 0}summary{cursor:pointer}
details ol{margin:6px 0 8px;padding-left:22px}details li{margin:2px 0}details time{color:var(--muted);font-variant-numeric:tabular-nums}
.gap{color:var(--muted);list-style:none}
`;
