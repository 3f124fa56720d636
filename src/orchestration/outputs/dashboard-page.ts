/**
 * The live dashboard page: the HTML report's document shell and stylesheet, a few tiles,
 * five chart slots (each the report's empty chart until the first interval) and the check
 * and threshold tables, all filled by /dashboard.js. Offline: the page loads nothing but
 * its own script and event stream.
 */
import { htmlDocument } from '../../report/html/document.js';
import { REPORT_CSS } from '../../report/html/styles.js';
import { DASHBOARD_CHART_IDS, dashboardCharts } from './dashboard-charts.js';
import { KINDS_SLOT_ID } from './dashboard-kinds.js';

/** Scripts and the event stream from this origin only; nothing else loads. */
const DASHBOARD_CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src data:";

const DASHBOARD_CSS = `
.tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(170px, 100%), 1fr)); gap: 12px; margin: 12px 0; }
.tile { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; }
.tile .label { color: var(--muted); font-size: 14px; }
.tile .value { font-size: 26px; font-weight: 700; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
#connection { font-size: 14px; }
.live-chart { min-width: 0; }
`;

const tile = (id: string, label: string): string => `<div class="tile"><div class="label">${label}</div><div class="value" id="${id}">-</div></div>`;

const table = (id: string, headers: readonly string[]): string =>
  `<table><thead><tr>${headers.map((header) => `<th scope="col">${header}</th>`).join('')}</tr></thead><tbody id="${id}"></tbody></table>`;

/** The page served at `/`. */
export function dashboardPage(): string {
  const empty = dashboardCharts([]);
  return htmlDocument(
    'coachbench live',
    REPORT_CSS + DASHBOARD_CSS,
    [
      '<h1 id="run-title">coachbench live</h1>',
      '<p class="muted"><span id="run-target"></span> · <span id="connection">connecting</span></p>',
      '<div class="verdict incomplete" id="verdict"><span class="word" id="verdict-word">WAITING</span>',
      '<dl class="facts"><div><dt>events</dt><dd id="total-events">-</dd></div><div><dt>KEEP_ALIVEs</dt><dd id="total-keepalives">-</dd></div>',
      '<div><dt>requests</dt><dd id="total-requests">-</dd></div><div><dt>errors</dt><dd id="total-errors">-</dd></div></dl></div>',
      '<div class="tiles">',
      tile('tile-elapsed', 'elapsed'),
      tile('tile-streams', 'open streams (plan)'),
      tile('tile-requests', 'requests/s'),
      tile('tile-events', 'events/s'),
      tile('tile-request-p99', 'request p99'),
      tile('tile-delivery-p99', 'delivery p99'),
      tile('tile-gap-p99', 'KEEP_ALIVE gap p99'),
      '</div>',
      '<section id="charts"><h2>Over time</h2><div class="grid">',
      ...DASHBOARD_CHART_IDS.map((id) => `<div class="live-chart" id="${id}">${empty[id]}</div>`),
      '</div></section>',
      // The request kinds' section (dashboard-kinds.ts), drawn once the first interval of a profile with kinds arrives.
      `<div id="${KINDS_SLOT_ID}"></div>`,
      `<section id="checks"><h2>Checks</h2>${table('checks-body', ['check', 'status', 'detail'])}</section>`,
      `<section id="thresholds"><h2>Thresholds</h2>${table('thresholds-body', ['threshold', 'status', 'observed'])}</section>`,
      '<footer>Each number is of the last one-second interval, or the run so far; the verdict is what the report would say if the run ended now.</footer>',
      '<script src="/dashboard.js"></script>',
    ],
    DASHBOARD_CSP,
  );
}
