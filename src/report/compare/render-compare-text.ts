/**
 * The terminal view of a comparison: a plain aligned table (no colour codes, so it reads
 * the same in a CI log), regressions repeated at the end where the eye lands. Report files
 * are input like any other: every cell and line of theirs is escaped whole (printable.ts).
 */

import { escapeInvisible } from '../../util/printable.js';
import type { Comparison, ComparisonRow } from './compare.js';
import { COMPARE_HEADERS, comparisonVerdict, rowCells, runLabel } from './compare-cells.js';

/** Right-align every column but the first (metric) and the last (verdict). */
function align(cells: readonly (readonly string[])[]): string[] {
  const rows = cells.map((row) => row.map((cell) => escapeInvisible(cell)));
  const widths = COMPARE_HEADERS.map((_, column) => Math.max(...rows.map((row) => [...(row[column] ?? '')].length)));
  const last = COMPARE_HEADERS.length - 1;
  return rows.map((row) =>
    row
      .map((cell, column) => {
        const pad = ' '.repeat((widths[column] ?? 0) - [...cell].length);
        return column === 0 || column === last ? cell + pad : pad + cell;
      })
      .join('  ')
      .trimEnd(),
  );
}

/** Rows a terminal reader can skip: info metrics that did not move, and judged metrics zero on both sides. */
function isQuiet(row: ComparisonRow): boolean {
  if (row.status === 'info') return row.delta === 0;
  return row.status === 'unchanged' && row.baseline === 0 && row.candidate === 0;
}

/**
 * Renders the comparison for a terminal. Unless `all` is set, quiet rows (see isQuiet) are
 * left out and counted, which keeps the table to what moved or matters.
 */
export function renderCompareText(comparison: Comparison, options: { all?: boolean } = {}): string {
  const shown = comparison.rows.filter((row) => options.all || !isQuiet(row));
  const table = align([[...COMPARE_HEADERS], ...shown.map(rowCells)]);
  const rule = '-'.repeat(Math.max(...table.map((line) => [...line].length)));
  const lines = [
    escapeInvisible(runLabel(comparison, 'baseline')),
    escapeInvisible(runLabel(comparison, 'candidate')),
    '',
    table[0] ?? '',
    rule,
    ...table.slice(1),
    rule,
  ];
  const hidden = comparison.rows.length - shown.length;
  if (hidden > 0) lines.push(`${hidden} quiet rows hidden (zero on both sides, or info metrics that did not move); --all shows them.`);
  for (const warning of comparison.warnings) lines.push(`warning: ${escapeInvisible(warning)}`);
  if (comparison.regressions.length > 0) {
    lines.push('', 'Regressions:', ...align(comparison.regressions.map(rowCells)).map((line) => `  ${line}`));
  }
  lines.push('', comparisonVerdict(comparison), '');
  return lines.join('\n');
}
