/** trend.md: the trend for a CI job summary ($GITHUB_STEP_SUMMARY): verdict, change points, drifts, then the details folded. */
import { escapeMarkdown } from '../escape.js';
import { markdownList, markdownTable } from '../markdown.js';
import type { Trend } from './trend-model.js';
import {
  CHANGE_COLUMNS,
  changePointsInOrder,
  changeRow,
  describeChangeRun,
  describeDrift,
  describeLabels,
  describeRun,
  regressionSentence,
  trendVerdict,
} from './trend-words.js';

export function renderTrendMarkdown(trend: Trend): string {
  const failed = trend.regressions.length > 0;
  const first = trend.runs[0];
  const newest = trend.runs.at(-1);
  const lines = [
    `## ${failed ? '❌' : '✅'} coachbench trend: ${failed ? 'REGRESSION' : 'no regression'}`,
    '',
    markdownList([
      `profile ${trend.profile}, ${trend.runs.length} runs from ${first?.startedAt ?? '—'} to ${newest?.startedAt ?? '—'}`,
      `newest: ${newest ? describeRun(newest) : '—'}`,
      `significance level ${trend.settings.significance}, ${trend.settings.permutations} permutations`,
    ]),
    '',
    `**${escapeMarkdown(trendVerdict(trend))}**`,
    '',
  ];
  if (failed) lines.push('### Regressions', '', markdownList(trend.regressions.map((change) => regressionSentence(change, trend.runs))), '');
  const changes = changePointsInOrder(trend);
  lines.push('### Change points', '');
  if (changes.length === 0) lines.push('No significant change point in any followed metric.', '');
  else {
    const rows = changes.map((change) => changeRow(change, describeChangeRun(change, trend.runs)));
    lines.push(markdownTable(CHANGE_COLUMNS, rows), '');
  }
  const drifts = trend.series.flatMap((series) => {
    const drift = describeDrift(series);
    return drift === null ? [] : [`${series.metric}: ${drift}`];
  });
  if (drifts.length > 0) lines.push('### Drifts', '', markdownList(drifts), '');
  const notes = [...trend.skipped.map((skip) => `skipped ${skip.file}: ${skip.reason}`), ...trend.notes];
  if (notes.length > 0) lines.push(`<details><summary>Skipped files and notes (${notes.length})</summary>`, '', markdownList(notes), '', '</details>', '');
  const runs = trend.runs.map((run) => [String(run.index), run.startedAt, run.runId, run.verdict, describeLabels(run.labels) || '—']);
  lines.push(
    `<details><summary>Runs (${trend.runs.length})</summary>`,
    '',
    markdownTable([{ title: '#', numeric: true }, { title: 'Started (UTC)' }, { title: 'Run' }, { title: 'Verdict' }, { title: 'Labels' }], runs),
    '',
    '</details>',
    '',
  );
  return lines.join('\n');
}
