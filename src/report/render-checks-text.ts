/**
 * The verdict, every check and every threshold as plain aligned text. What stdout keeps of
 * a run when its report folder cannot be written: the one record a CI log is sure to have.
 * Every cell is escaped whole (printable.ts): a hostile detail can neither move the cursor
 * nor break the table.
 */
import type { Report } from '../contract/report.js';
import { escapeInvisible } from '../util/printable.js';
import { formatObserved } from './format.js';
import { checkTally, formatThresholdObserved, runLength, thresholdTally, verdictWord } from './report-facts.js';

/** Pads every column but the last to its widest cell. */
function align(cells: readonly (readonly string[])[]): string[] {
  const rows = cells.map((row) => row.map((cell) => escapeInvisible(cell)));
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => [...(row[column] ?? '')].length))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell + ' '.repeat((widths[column] ?? 0) - [...cell].length)))
      .join('  ')
      .trimEnd(),
  );
}

/** `FAIL: run smoke-20261121T194425Z, ...`, then the checks table and the thresholds table. */
export function renderChecksText(report: Report): string {
  const checks = checkTally(report);
  const thresholds = thresholdTally(report);
  const lines = [
    `${verdictWord(report)}: run ${escapeInvisible(report.runId)} (${escapeInvisible(report.profile.name)}, ${runLength(report)}): ` +
      `${checks.passed} checks passed, ${checks.failed} failed, ${checks.skipped} skipped; ` +
      `${thresholds.passed}/${thresholds.total} thresholds held`,
    '',
    ...align([
      ['status', 'check', 'observed', 'detail'],
      ...report.checks.map((check) => [check.status, check.id, formatObserved(check.observed), check.detail]),
    ]),
  ];
  if (report.thresholds.length > 0) {
    lines.push(
      '',
      ...align([
        ['status', 'threshold', 'observed'],
        ...report.thresholds.map((threshold) => [threshold.status, threshold.expression, formatThresholdObserved(threshold)]),
      ]),
    );
  }
  return `${lines.join('\n')}\n`;
}
