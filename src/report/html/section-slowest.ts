/**
 * The slowest traced requests (report.json `metrics.slowest` and the time-series points'
 * `slowest`, docs/design.md §5.2): per scenario, the run's slowest with the trace id each
 * carried, to be followed into the target's traces; a link each when the report has a
 * `traceUrl` template. The slowest of each interval are in a collapsed table.
 */
import type { SlowRequest } from '../../contract/encoded-metrics.js';
import type { Report } from '../../contract/report.js';
import { escapeXml } from '../escape.js';
import { formatMs } from '../format.js';
import { traceLink } from '../trace-url.js';
import { type Html, raw, section, table } from './parts.js';

const KEY_TITLES: Record<string, string> = {
  photoUpload: 'Photo upload',
  tagLink: 'Tag link',
  'chatStreams.delivery': 'Message delivery (the injected message)',
};

const titleOf = (key: string): string => KEY_TITLES[key] ?? (key.startsWith('requests.') ? `Request kind ${key.slice('requests.'.length)}` : key);

function traceCell(template: string | undefined, traceId: string): Html {
  const href = traceLink(template, traceId);
  const code = `<code>${escapeXml(traceId)}</code>`;
  return raw(href === null ? code : `<a href="${escapeXml(href)}" rel="noopener noreferrer">${code}</a>`);
}

const COLUMNS = [{ title: 'Scenario' }, { title: 'Latency', numeric: true }, { title: 'Trace id' }];

function rowsOf(slowest: Readonly<Record<string, readonly SlowRequest[]>>, template: string | undefined): Array<Array<string | Html>> {
  return Object.entries(slowest).flatMap(([key, list]) => list.map((slow) => [titleOf(key), formatMs(slow.latencyMs), traceCell(template, slow.traceId)]));
}

export function slowestSection(report: Report): string {
  const slowest = report.metrics.slowest;
  if (slowest === undefined || Object.keys(slowest).length === 0) return '';
  const template = report.traceUrl;
  const intro = template
    ? '<p class="muted">The slowest requests of the run, with the W3C trace id each sent in its <code>traceparent</code>; each links to its trace.</p>'
    : '<p class="muted">The slowest requests of the run, with the W3C trace id each sent in its <code>traceparent</code> (<code>--trace-url</code> makes them links).</p>';
  const intervals = report.timeseries.filter((point) => point.slowest !== undefined && Object.keys(point.slowest).length > 0);
  const perInterval = intervals.length
    ? `<details><summary>The slowest of each interval (${intervals.length})</summary>${table(
        [{ title: 'At (s)', numeric: true }, ...COLUMNS],
        intervals.flatMap((point) => rowsOf(point.slowest ?? {}, template).map((row) => [String(point.tSec), ...row])),
      )}</details>`
    : '';
  return section('slowest', 'Slowest requests', intro + table(COLUMNS, rowsOf(slowest, template)) + perInterval);
}
