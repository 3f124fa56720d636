/** A comparison as Markdown for a CI job summary: verdict, regressions, then every row folded. */

import { escapeMarkdown } from '../escape.js';
import { markdownList, markdownTable } from '../markdown.js';
import type { Comparison } from './compare.js';
import { COMPARE_HEADERS, comparisonVerdict, rowCells, runLabel } from './compare-cells.js';

const COLUMNS = COMPARE_HEADERS.map((title, index) => ({ title, numeric: index >= 1 && index <= 3 }));

export function renderCompareMarkdown(comparison: Comparison): string {
  const failed = comparison.regressions.length > 0;
  const lines = [
    `## ${failed ? '❌' : '✅'} coachbench compare: ${failed ? 'REGRESSION' : 'no regression'}`,
    '',
    markdownList([runLabel(comparison, 'baseline'), runLabel(comparison, 'candidate')]),
    '',
    `**${escapeMarkdown(comparisonVerdict(comparison))}**`,
    '',
  ];
  if (comparison.warnings.length > 0) lines.push('### Comparability warnings', '', markdownList(comparison.warnings), '');
  if (failed) lines.push('### Regressions', '', markdownTable(COLUMNS, comparison.regressions.map(rowCells)), '');
  lines.push(
    `<details><summary>All compared metrics (${comparison.rows.length})</summary>`,
    '',
    markdownTable(COLUMNS, comparison.rows.map(rowCells)),
    '',
    '</details>',
    '',
  );
  return lines.join('\n');
}
