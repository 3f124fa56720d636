/**
 * The report's only stylesheet, inlined. Dark text on white, large type and thick lines
 * for projectors, a 1200 px column and wrapping tables so 1280 px never scrolls sideways.
 */
export const REPORT_CSS = `
:root { --fg: #111; --muted: #444; --line: #c8c8c8; --pass: #0b6b2f; --pass-bg: #e3f4e8; --fail: #a4111b; --fail-bg: #fde8e8; --skip: #5a5a5a; --skip-bg: #eee; --warn-bg: #fff4d6; --incomplete: #7a4f00; }
* { box-sizing: border-box; }
html { background: #fff; }
body { margin: 0; color: var(--fg); background: #fff; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
main { max-width: 1200px; margin: 0 auto; padding: 20px 24px 48px; overflow-wrap: break-word; }
h1 { font-size: 28px; margin: 0 0 4px; overflow-wrap: anywhere; }
h2 { font-size: 22px; margin: 36px 0 12px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 18px; margin: 20px 0 8px; }
p { margin: 6px 0; }
.muted { color: var(--muted); }
code, .mono { font-family: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, monospace; font-size: 0.92em; }
.verdict { display: flex; flex-wrap: wrap; gap: 12px 24px; align-items: center; padding: 16px 20px; border-radius: 8px; border: 2px solid; margin: 16px 0; }
.verdict.pass { background: var(--pass-bg); border-color: var(--pass); }
.verdict.fail { background: var(--fail-bg); border-color: var(--fail); }
.verdict .word { font-size: 34px; font-weight: 800; letter-spacing: 0.04em; }
.verdict.pass .word { color: var(--pass); }
.verdict.fail .word { color: var(--fail); }
.verdict.incomplete { background: var(--warn-bg); border-color: var(--incomplete); }
.verdict.incomplete .word { color: var(--incomplete); }
.facts { display: flex; flex-wrap: wrap; gap: 4px 20px; margin: 0; }
.facts div { min-width: 0; overflow-wrap: anywhere; }
.facts dt { display: inline; color: var(--muted); }
.facts dd { display: inline; margin: 0 0 0 6px; font-weight: 600; }
.failures { border-left: 6px solid var(--fail); background: var(--fail-bg); padding: 10px 16px; margin: 12px 0; }
.failures ul { margin: 4px 0; padding-left: 20px; }
.failures li { margin: 4px 0; overflow-wrap: anywhere; }
.no-evidence { border-left: 6px solid var(--incomplete); background: var(--warn-bg); padding: 10px 16px; margin: 12px 0; }
.no-evidence ul { margin: 4px 0; padding-left: 20px; }
.no-evidence li { margin: 4px 0; overflow-wrap: anywhere; }
.warnings { border-left: 6px solid #b07d00; background: var(--warn-bg); padding: 10px 16px; margin: 12px 0; }
.warnings ul { margin: 4px 0; padding-left: 20px; }
.warnings li { overflow-wrap: anywhere; }
table { width: 100%; border-collapse: collapse; margin: 8px 0 16px; table-layout: auto; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: anywhere; }
/* break-word, unlike anywhere, leaves a header or a check id whole when its column can grow. */
th { background: #f3f3f3; font-weight: 700; overflow-wrap: break-word; }
td code { overflow-wrap: break-word; }
th.num { white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num { white-space: nowrap; }
.badge { display: inline-block; white-space: nowrap; min-width: 3.6em; text-align: center; padding: 1px 8px; border-radius: 4px; font-weight: 700; font-size: 0.9em; }
.badge.pass { background: var(--pass-bg); color: var(--pass); border: 1px solid var(--pass); }
.badge.fail { background: var(--fail-bg); color: var(--fail); border: 1px solid var(--fail); }
.badge.skip { background: var(--skip-bg); color: var(--skip); border: 1px solid var(--skip); }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(520px, 100%), 1fr)); gap: 20px 28px; }
.kv { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(260px, 100%), 1fr)); gap: 2px 24px; margin: 8px 0 16px; }
.kv div { display: flex; justify-content: space-between; gap: 12px; border-bottom: 1px dotted var(--line); padding: 3px 0; min-width: 0; }
.kv dt { color: var(--muted); overflow-wrap: anywhere; }
.kv dd { margin: 0; font-weight: 600; text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
figure { margin: 0; min-width: 0; }
.grid > table { align-self: start; }
figcaption { font-weight: 700; margin-bottom: 4px; }
figcaption .muted { font-weight: 400; }
svg.chart { display: block; width: 100%; height: auto; background: #fff; }
svg.chart .gridline { stroke: #dcdcdc; stroke-width: 1; }
svg.chart .plot-border { fill: none; stroke: #777; stroke-width: 1; }
svg.chart .tick { font-size: 15px; fill: #222; }
svg.chart .axis-title { font-size: 16px; fill: #111; font-weight: 600; }
.chart-legend { display: flex; flex-wrap: wrap; gap: 2px 16px; font-size: 14px; margin: 2px 0 4px; }
.legend-item { display: inline-flex; align-items: center; gap: 6px; overflow-wrap: anywhere; }
svg.swatch { width: 22px; height: 12px; flex: none; }
.single { max-width: 760px; }
svg.chart .series { fill: none; stroke-width: 2.5; stroke-linejoin: round; stroke-linecap: round; }
svg.chart .reference { stroke-width: 2; stroke-dasharray: 6 4; }
svg.chart .band { fill-opacity: 0.16; }
.chart-empty { border: 1px dashed var(--line); padding: 40px 16px; text-align: center; color: var(--muted); }
.pcts { margin: 4px 0 0; font-size: 14px; }
details { margin: 8px 0; }
summary { cursor: pointer; font-weight: 600; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f6f6; padding: 10px; border-radius: 4px; }
footer { margin-top: 40px; color: var(--muted); font-size: 14px; }
@media print { main { max-width: none; } h2 { break-after: avoid; } figure { break-inside: avoid; } }
`;
