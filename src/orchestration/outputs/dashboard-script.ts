/**
 * The dashboard's browser script, served as /dashboard.js (the page's CSP admits scripts
 * from its own origin only). It listens to /events (Server-Sent Events), keeps the samples,
 * and redraws tiles, charts and the check and threshold tables each second. Data reaches the
 * page through textContent and SVG attributes only, never as markup.
 */
/** The script; the page keeps at most `maxSamples` samples (the oldest go first). */
export const dashboardScript = (maxSamples: number): string => `'use strict';
(() => {
  const SVG = 'http://www.w3.org/2000/svg';
  const COLORS = ['#1f5fbf', '#c0392b', '#2e8b57', '#8e44ad'];
  const samples = [];
  let session = null;
  const $ = (id) => document.getElementById(id);
  const fmt = (n, digits) => (n === null || n === undefined ? '-' : Number(n).toLocaleString('en-US', { maximumFractionDigits: digits ?? 1 }));
  const clock = (sec) => { const s = Math.round(sec); const h = Math.floor(s / 3600); const m = Math.floor((s % 3600) / 60); return (h ? h + 'h' : '') + (h || m ? m + 'm' : '') + (s % 60) + 's'; };
  const el = (tag, attrs, text) => { const node = document.createElementNS(SVG, tag); for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v)); if (text !== undefined) node.textContent = text; return node; };

  function setTile(id, text) { const node = $(id); if (node) node.textContent = text; }

  /** One line chart: series of [tSec, value|null]; gaps where a value is null. */
  function drawChart(id, series, unit) {
    const svg = $(id);
    if (!svg) return;
    const W = 560, H = 240, L = 64, R = 12, T = 12, B = 34;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    const points = series.flatMap((s) => s.values.filter((v) => v[1] !== null));
    const t0 = samples.length ? samples[0].tSec : 0;
    const t1 = samples.length ? Math.max(samples[samples.length - 1].tSec, t0 + 1) : 1;
    const vmax = Math.max(1e-9, ...points.map((v) => v[1])) * 1.1;
    const x = (t) => L + ((t - t0) / (t1 - t0)) * (W - L - R);
    const y = (v) => H - B - (v / vmax) * (H - T - B);
    svg.appendChild(el('rect', { class: 'plot-border', x: L, y: T, width: W - L - R, height: H - T - B }));
    if (points.length === 0) {
      svg.appendChild(el('text', { class: 'axis-title', x: (L + W - R) / 2, y: (T + H - B) / 2, 'text-anchor': 'middle' }, 'nothing measured so far'));
      return;
    }
    for (let i = 0; i <= 4; i++) {
      const v = (vmax / 1.1) * (i / 4);
      svg.appendChild(el('line', { class: 'gridline', x1: L, x2: W - R, y1: y(v), y2: y(v) }));
      svg.appendChild(el('text', { class: 'tick', x: L - 6, y: y(v) + 5, 'text-anchor': 'end' }, fmt(v, v < 10 ? 2 : 0)));
    }
    svg.appendChild(el('text', { class: 'tick', x: L, y: H - 10 }, clock(t0)));
    svg.appendChild(el('text', { class: 'tick', x: W - R, y: H - 10, 'text-anchor': 'end' }, clock(t1)));
    svg.appendChild(el('text', { class: 'axis-title', x: (L + W - R) / 2, y: H - 10, 'text-anchor': 'middle' }, unit));
    series.forEach((s, i) => {
      let d = '';
      let pen = false;
      for (const [t, v] of s.values) {
        if (v === null) { pen = false; continue; }
        d += (pen ? 'L' : 'M') + x(t).toFixed(1) + ' ' + y(v).toFixed(1) + ' ';
        pen = true;
      }
      if (d) svg.appendChild(el('path', { class: 'series', d: d.trim(), stroke: COLORS[i % COLORS.length], 'data-series': s.name }));
    });
    const legend = $(id + '-legend');
    if (legend && legend.childElementCount !== series.length) {
      legend.textContent = '';
      series.forEach((s, i) => {
        const item = document.createElement('span');
        item.className = 'legend-item';
        const swatch = document.createElementNS(SVG, 'svg');
        swatch.setAttribute('class', 'swatch');
        swatch.setAttribute('viewBox', '0 0 22 12');
        swatch.appendChild(el('line', { x1: 0, x2: 22, y1: 6, y2: 6, stroke: COLORS[i % COLORS.length], 'stroke-width': 3 }));
        item.appendChild(swatch);
        item.appendChild(document.createTextNode(s.name));
        legend.appendChild(item);
      });
    }
  }

  function fillTable(id, rows) {
    const body = $(id);
    if (!body) return;
    body.textContent = '';
    for (const cells of rows) {
      const tr = document.createElement('tr');
      for (const cell of cells) {
        const td = document.createElement('td');
        if (cell && cell.badge) {
          const badge = document.createElement('span');
          badge.className = 'badge ' + (cell.badge === 'pass' || cell.badge === 'fail' ? cell.badge : 'skip');
          badge.textContent = cell.badge.toUpperCase();
          td.appendChild(badge);
        } else {
          td.textContent = cell === null || cell === undefined ? '-' : String(cell);
        }
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
  }

  const pct = (key, p) => samples.map((s) => [s.tSec, s[key] ? s[key][p] : null]);

  function render() {
    const last = samples[samples.length - 1];
    if (!last) return;
    setTile('tile-elapsed', clock(last.tSec) + (session ? ' / ' + clock(session.durationMs / 1000) : ''));
    // Open (chat and main) beside what the plan holds now: a run that cannot hold its load shows it here first.
    const open = last.streamsOpen + last.mainStreamsOpen;
    setTile('tile-streams', fmt(open, 0) + (last.plannedStreams === null || last.plannedStreams === undefined ? '' : ' (plan ' + fmt(last.plannedStreams, 0) + ')'));
    setTile('tile-events', fmt(last.eventsPerSec));
    setTile('tile-requests', fmt(last.requestsPerSec));
    setTile('tile-delivery-p99', last.eventLatencyMs ? fmt(last.eventLatencyMs.p99, 2) + ' ms' : '-');
    setTile('tile-request-p99', last.requestLatencyMs ? fmt(last.requestLatencyMs.p99, 2) + ' ms' : '-');
    setTile('tile-gap-p99', last.keepAliveGapMs ? fmt(last.keepAliveGapMs.p99 / 1000, 3) + ' s' : '-');
    setTile('total-events', fmt(last.totals.events, 0));
    setTile('total-requests', fmt(last.totals.requests, 0));
    setTile('total-errors', fmt(last.totals.errors, 0));
    setTile('total-keepalives', fmt(last.totals.keepAlives, 0));
    const verdict = $('verdict');
    verdict.className = 'verdict ' + (last.verdict === 'pass' ? 'pass' : last.verdict === 'fail' ? 'fail' : 'incomplete');
    setTile('verdict-word', String(last.verdict).toUpperCase() + ' so far');
    drawChart('chart-streams', [
      { name: 'chat streams open', values: samples.map((s) => [s.tSec, s.streamsOpen]) },
      { name: 'main streams open', values: samples.map((s) => [s.tSec, s.mainStreamsOpen]) },
      { name: 'planned (participants)', values: samples.map((s) => [s.tSec, s.plannedParticipants === undefined ? null : s.plannedParticipants]) },
    ], 'streams');
    drawChart('chart-rates', [
      { name: 'requests/s', values: samples.map((s) => [s.tSec, s.requestsPerSec]) },
      { name: 'events/s', values: samples.map((s) => [s.tSec, s.eventsPerSec]) },
    ], 'per second');
    drawChart('chart-request-latency', ['p50', 'p90', 'p99'].map((p) => ({ name: 'request ' + p, values: pct('requestLatencyMs', p) })), 'ms');
    drawChart('chart-delivery-latency', ['p50', 'p90', 'p99'].map((p) => ({ name: 'delivery ' + p, values: pct('eventLatencyMs', p) })), 'ms');
    drawChart('chart-keepalive', ['p50', 'p90', 'p99'].map((p) => ({ name: 'gap ' + p, values: pct('keepAliveGapMs', p) })), 'ms');
    fillTable('checks-body', last.checks.map((c) => [c.id, { badge: c.status }, c.detail]));
    fillTable('thresholds-body', last.thresholds.length ? last.thresholds.map((t) => [t.expression, { badge: t.status }, t.observed]) : [['no thresholds', null, null]]);
  }

  function onSession(data) {
    session = data;
    samples.length = 0;
    setTile('run-title', 'coachbench live: ' + data.profileName);
    setTile('run-target', data.targetUrl);
  }

  const source = new EventSource('/events');
  source.addEventListener('session', (e) => onSession(JSON.parse(e.data)));
  source.addEventListener('history', (e) => { samples.push(...JSON.parse(e.data)); render(); });
  source.addEventListener('sample', (e) => { samples.push(JSON.parse(e.data)); if (samples.length > ${maxSamples}) samples.shift(); render(); });
  source.addEventListener('end', () => { setTile('connection', 'the run has ended; the report is in its folder'); source.close(); });
  source.onerror = () => setTile('connection', 'not connected: the run may have ended');
  source.onopen = () => setTile('connection', 'live, updated every second');
})();
`;
