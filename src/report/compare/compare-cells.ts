/** The words and cells of a comparison, shared by the terminal, Markdown and HTML views. */

import { formatChange, formatValue } from '../format.js';
import type { Comparison, ComparisonRow, RowStatus } from './compare.js';

export const COMPARE_HEADERS = ['Metric', 'Baseline', 'Candidate', 'Change', 'Allowed', 'Verdict'] as const;

const STATUS_WORDS: Record<RowStatus, string> = {
  regression: 'REGRESSION',
  improvement: 'improved',
  unchanged: 'ok',
  noise: 'ok (within noise)',
  'few-samples': 'not judged (few samples)',
  info: 'info',
  missing: 'no data',
};

export function statusWord(status: RowStatus): string {
  return STATUS_WORDS[status];
}

/** `+20.1 ms (+351 %)`; a zero baseline shows `(new)`; flags show the raw step. */
export function describeChange(row: ComparisonRow): string {
  if (row.delta === null) return '—';
  if (row.delta === 0) return '0';
  const sign = row.delta > 0 ? '+' : '-';
  const magnitude = row.unit === 'flag' ? String(Math.abs(row.delta)) : formatValue(Math.abs(row.delta), row.unit);
  return `${sign}${magnitude} (${formatChange(row.relative)})`;
}

/** The allowed worsening: `10 %, ≥ 1.00 ms`; `—` for info metrics. */
export function describeLimit(row: ComparisonRow): string {
  if (row.limit === null) return '—';
  const percent = `${Number((row.limit * 100).toPrecision(4))} %`;
  const way = row.direction === 'higher' ? '−' : '+';
  return `${way}${percent}, ≥ ${row.unit === 'flag' ? '1' : formatValue(row.floor, row.unit)}`;
}

export function rowCells(row: ComparisonRow): string[] {
  return [
    row.metric,
    formatValue(row.baseline, row.unit),
    formatValue(row.candidate, row.unit),
    describeChange(row),
    describeLimit(row),
    statusWord(row.status),
  ];
}

/** One sentence: the outcome of the comparison. */
export function comparisonVerdict(comparison: Comparison): string {
  const count = comparison.regressions.length;
  const limit = `${Number((comparison.maxRegression * 100).toPrecision(4))} %`;
  const improved = comparison.rows.filter((row) => row.status === 'improvement').length;
  const judged = comparison.rows.filter((row) => row.status !== 'info' && row.status !== 'missing').length;
  if (count === 0) return `No regressions: ${judged} metrics judged (default limit ${limit}), ${improved} improved.`;
  return `${count} regression${count === 1 ? '' : 's'} among ${judged} judged metrics (default limit ${limit}), ${improved} improved.`;
}

export function runLabel(comparison: Comparison, side: 'baseline' | 'candidate'): string {
  const run = comparison[side];
  return `${side}: ${run.profile} · ${run.runId} · ${run.startedAt} · verdict ${run.verdict}`;
}
