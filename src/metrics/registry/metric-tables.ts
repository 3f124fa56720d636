/**
 * The metric tables of the docs, rendered from the registry: docs/metrics.md's exported
 * metrics and docs/reports.md's report.json metrics. Each sits between two markers; `npm run
 * docs:metrics` rewrites them and test/metrics/metric-docs.test.ts fails when a doc disagrees.
 */
import { EXPORTED } from './exported-families.js';
import type { MeasureKind } from './metric-decl.js';
import { REPORT_METRICS } from './metric-registry.js';

export type MetricTableId = 'exported' | 'report';

const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`.replace(/ {2}\|/g, ' |');

/** docs/metrics.md: the metrics Prometheus and OTLP get. */
export function exportedTable(): string {
  const rows = Object.values(EXPORTED).map((metric) => row([`\`${metric.name}\``, metric.kind, metric.labelDoc, metric.doc]));
  return [row(['name', 'type', 'labels', 'what it counts']), '|---|---|---|---|', ...rows].join('\n');
}

const MEASURE_WORDS: Readonly<Record<MeasureKind, string>> = {
  counter: 'count',
  peak: 'peak',
  histogram: 'histogram',
  family: 'counts by key',
  figure: 'figure',
};

const BETTER_WORDS = { lower: 'lower', higher: 'higher', info: '—' } as const;

/** docs/reports.md: every metric report.json holds, as a threshold, compare and trend address it. */
export function reportTable(): string {
  const rows = REPORT_METRICS.map(({ root, field, decl }) =>
    row([
      `\`${root}.${field}\``,
      MEASURE_WORDS[decl.measure],
      decl.unit,
      BETTER_WORDS[decl.direction],
      decl.since === undefined ? decl.doc : `${decl.doc} (since ${decl.since})`,
    ]),
  );
  return [row(['metric', 'kind', 'unit', 'better', 'what it is']), '|---|---|---|---|---|', ...rows].join('\n');
}

export const METRIC_TABLES: Readonly<Record<MetricTableId, { doc: string; render: () => string }>> = {
  exported: { doc: 'docs/metrics.md', render: exportedTable },
  report: { doc: 'docs/reports.md', render: reportTable },
};

const begin = (id: MetricTableId): string => `<!-- metric-table:${id} (generated from src/metrics/registry/ by npm run docs:metrics; do not edit) -->`;
const end = (id: MetricTableId): string => `<!-- /metric-table:${id} -->`;

/** `doc` with the table `id` between its markers replaced by `table`; throws when the markers are missing. */
export function spliceTable(doc: string, id: MetricTableId, table: string): string {
  const from = doc.indexOf(begin(id));
  const to = doc.indexOf(end(id));
  if (from < 0 || to < from) throw new Error(`no ${begin(id)} … ${end(id)} markers`);
  return `${doc.slice(0, from)}${begin(id)}\n${table}\n${doc.slice(to)}`;
}
