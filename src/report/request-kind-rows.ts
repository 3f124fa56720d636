/**
 * The request kinds of the `requests` scenario (docs/design.md §2.15) as plain cells, one row
 * per kind: what it sent, its share of the mix, what came back and its latency. Shared by the
 * HTML and Markdown reports so they never disagree.
 */
import type { Report, RequestKindSummary } from '../contract/report.js';
import { formatCount, formatCounts, formatMs, formatRatio, formatValue } from './format.js';
import type { Column } from './scenario-rows.js';

export const REQUEST_KIND_COLUMNS: readonly Column[] = [
  { title: 'Kind' },
  { title: 'Request' },
  { title: 'Load' },
  { title: 'Requests', numeric: true },
  { title: 'Errors' },
  { title: 'Status codes' },
  { title: 'p50', numeric: true },
  { title: 'p99', numeric: true },
];

/** One row per request kind; none when the report has no `scenarios.requests`. */
export function requestKindRows(report: Report): string[][] {
  return requestKindRowsOf(report.scenarios.requests ?? {});
}

/** One row per kind of `kinds`: the report's, or the live dashboard's summaries of the run so far. */
export function requestKindRowsOf(kinds: Readonly<Record<string, RequestKindSummary>>): string[][] {
  return Object.entries(kinds).map(([name, kind]) => {
    const share = kind.share === null ? 'own load' : `${Math.round(kind.share * 1_000) / 10}% of the mix`;
    const load = kind.model === 'open' ? `${share}, ${formatValue(kind.requestedRatePerSec, 'perSec')}` : `${share}, closed model`;
    const errors = kind.errors === 0 ? '0' : `${formatCount(kind.errors)} (${formatRatio(kind.errorRate)}): ${formatCounts(kind.errorsByKind)}`;
    const latency = kind.latencyMs.count === 0 ? ['—', '—'] : [formatMs(kind.latencyMs.p50), formatMs(kind.latencyMs.p99)];
    return [name, `${kind.method} ${kind.path}`, load, formatCount(kind.requests), errors, formatCounts(kind.statusCodes), ...latency];
  });
}
