/**
 * The dashboard's browser script, served as /dashboard.js (the page's CSP admits scripts
 * from its own origin only). It listens to /events (Server-Sent Events) and shows what each
 * event carries: the session, the last interval's sample (tiles, totals, verdict, the check
 * and threshold tables) and the charts, which the server draws with the report's chart code
 * (dashboard-charts.ts). Sample data reaches the page through textContent only.
 *
 * `dashboardClient` is compiled with the rest of the code and sent as its own text, so it is
 * type-checked yet needs no bundler: it must stay self-contained, using nothing but its own
 * body and the browser globals declared here (type imports vanish when compiled).
 */
import type { DashboardSample } from './dashboard-sample.js';
import type { SessionInfo } from './live-output.js';

/** The few DOM and EventSource members the script uses (the project compiles without the DOM library). */
interface PageElement {
  textContent: string | null;
  className: string;
  innerHTML: string;
  appendChild(child: PageElement): void;
}

interface PageEventSource {
  addEventListener(type: string, listener: (event: { data: string }) => void): void;
  onerror: (() => void) | null;
  onopen: (() => void) | null;
  close(): void;
}

interface PageGlobals {
  document: { getElementById(id: string): PageElement | null; createElement(tag: string): PageElement };
  EventSource: new (url: string) => PageEventSource;
}

type Cell = string | number | null | { badge: string };

export function dashboardClient(): void {
  const { document, EventSource } = globalThis as unknown as PageGlobals;
  let session: SessionInfo | null = null;
  const fmt = (n: number | null | undefined, digits = 1): string =>
    n === null || n === undefined ? '-' : n.toLocaleString('en-US', { maximumFractionDigits: digits });
  const clock = (sec: number): string => {
    const s = Math.round(sec);
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s % 60}s`;
  };
  const setText = (id: string, text: string): void => {
    const node = document.getElementById(id);
    if (node) node.textContent = text;
  };
  const ms = (value: number | undefined, digits: number): string => (value === undefined ? '-' : `${fmt(value, digits)} ms`);

  function fillTable(id: string, rows: readonly (readonly Cell[])[]): void {
    const body = document.getElementById(id);
    if (!body) return;
    body.textContent = '';
    for (const cells of rows) {
      const tr = document.createElement('tr');
      for (const cell of cells) {
        const td = document.createElement('td');
        if (cell !== null && typeof cell === 'object') {
          const badge = document.createElement('span');
          badge.className = `badge ${cell.badge === 'pass' || cell.badge === 'fail' ? cell.badge : 'skip'}`;
          badge.textContent = cell.badge.toUpperCase();
          td.appendChild(badge);
        } else {
          td.textContent = cell === null ? '-' : String(cell);
        }
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
  }

  function showSample(last: DashboardSample): void {
    setText('tile-elapsed', clock(last.tSec) + (session ? ` / ${clock(session.durationMs / 1000)}` : ''));
    // Open (chat and main) beside what the plan holds now: a run that cannot hold its load shows it here first.
    const plan = last.plannedStreams === null ? '' : ` (plan ${fmt(last.plannedStreams, 0)})`;
    setText('tile-streams', fmt(last.streamsOpen + last.mainStreamsOpen, 0) + plan);
    setText('tile-events', fmt(last.eventsPerSec));
    setText('tile-requests', fmt(last.requestsPerSec));
    setText('tile-delivery-p99', ms(last.eventLatencyMs?.p99, 2));
    setText('tile-request-p99', ms(last.requestLatencyMs?.p99, 2));
    setText('tile-gap-p99', last.keepAliveGapMs ? `${fmt(last.keepAliveGapMs.p99 / 1000, 3)} s` : '-');
    setText('total-events', fmt(last.totals.events, 0));
    setText('total-requests', fmt(last.totals.requests, 0));
    setText('total-errors', fmt(last.totals.errors, 0));
    setText('total-keepalives', fmt(last.totals.keepAlives, 0));
    const verdict = document.getElementById('verdict');
    if (verdict) verdict.className = `verdict ${last.verdict === 'pass' || last.verdict === 'fail' ? last.verdict : 'incomplete'}`;
    setText('verdict-word', `${last.verdict.toUpperCase()} so far`);
    fillTable(
      'checks-body',
      last.checks.map((check) => [check.id, { badge: check.status }, check.detail]),
    );
    fillTable(
      'thresholds-body',
      last.thresholds.length > 0
        ? last.thresholds.map((threshold) => [threshold.expression, { badge: threshold.status }, threshold.observed])
        : [['no thresholds', null, null]],
    );
  }

  /*
   * The charts arrive as markup from the report's chart builders, which escape every string
   * they draw (as in report.html); the page's CSP runs no inline script or handler whatever
   * the markup holds.
   */
  function showCharts(charts: Record<string, string>): void {
    for (const [id, html] of Object.entries(charts)) {
      const slot = document.getElementById(id);
      if (slot) slot.innerHTML = html;
    }
  }

  const source = new EventSource('/events');
  source.addEventListener('session', (event) => {
    session = JSON.parse(event.data) as SessionInfo;
    setText('run-title', `coachbench live: ${session.profileName}`);
    setText('run-target', session.targetUrl);
  });
  source.addEventListener('sample', (event) => showSample(JSON.parse(event.data) as DashboardSample));
  source.addEventListener('charts', (event) => showCharts(JSON.parse(event.data) as Record<string, string>));
  source.addEventListener('end', () => {
    setText('connection', 'the run has ended; the report is in its folder');
    source.close();
  });
  source.onerror = () => setText('connection', 'not connected: the run may have ended');
  source.onopen = () => setText('connection', 'live, updated every second');
}

/** The script as served: the compiled function, called once. */
export const dashboardScript = (): string => `'use strict';\n(${dashboardClient.toString()})();\n`;
