/**
 * trend.html: the history of a profile as one self-contained page in the report's shell
 * and look. The verdict for the newest run, the change points, one small-multiple chart
 * per followed metric (every run a point linked to its report), and the runs themselves.
 */
import { escapeXml } from '../escape.js';
import { formatValue } from '../format.js';
import { htmlDocument } from '../html/document.js';
import { type Column, figure, grid, type Html, keyValues, raw, section, table } from '../html/parts.js';
import { REPORT_CSS } from '../html/styles.js';
import { trendChart } from './trend-chart.js';
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

const EXTRA_CSS = `
svg.chart .segment { stroke-width: 3; stroke-linecap: round; }
svg.chart .change { stroke-width: 2.5; stroke-dasharray: 6 4; }
svg.chart .run { stroke: #fff; stroke-width: 1.2; }
svg.chart a:hover .run, svg.chart a:focus .run { stroke: #111; stroke-width: 2; }
.kv dd { white-space: normal; overflow-wrap: anywhere; }
tr.regression td { background: var(--fail-bg); }
tr.improvement td { background: var(--pass-bg); }
`;

function link(href: string | undefined, text: string): Html {
  return raw(href === undefined ? escapeXml(text) : `<a href="${escapeXml(href)}">${escapeXml(text)}</a>`);
}

function changeTable(trend: Trend, links: ReadonlyMap<number, string>): string {
  const changes = changePointsInOrder(trend);
  if (changes.length === 0) return '<p>No significant change point in any followed metric.</p>';
  const rows = changes.map((change) => changeRow(change, link(links.get(change.run), describeChangeRun(change, trend.runs))));
  const body = table(CHANGE_COLUMNS, rows, 'changes');
  // Row classes colour regressions and improvements; the table helper has no per-row class.
  return changes.reduce((html, change) => html.replace('<tr><td>', `<tr class="${change.kind}"><td>`), body);
}

function runTable(trend: Trend, links: ReadonlyMap<number, string>): string {
  const columns: Column[] = [{ title: '#', numeric: true }, { title: 'Started (UTC)' }, { title: 'Run' }, { title: 'Verdict' }, { title: 'Labels' }];
  const rows = trend.runs.map((run) => [
    String(run.index),
    run.startedAt,
    link(links.get(run.index), run.runId),
    run.verdict,
    describeLabels(run.labels) || '—',
  ]);
  return table(columns, rows, 'runs');
}

function verdictBox(trend: Trend): string {
  const failed = trend.regressions.length > 0;
  const items = trend.regressions.map((change) => `<li>${escapeXml(regressionSentence(change, trend.runs))}</li>`).join('');
  return [
    `<div class="verdict ${failed ? 'fail' : 'pass'}" data-verdict="${failed ? 'regression' : 'none'}">`,
    `<span class="word">${failed ? 'REGRESSION' : 'NO REGRESSION'}</span>`,
    `<p>${escapeXml(trendVerdict(trend))}</p>`,
    '</div>',
    failed ? `<div class="failures"><strong>The newest run begins or continues a regression</strong><ul>${items}</ul></div>` : '',
  ].join('');
}

function notesBox(trend: Trend): string {
  const items = [...trend.skipped.map((skip) => `skipped ${skip.file}: ${skip.reason}`), ...trend.notes];
  if (items.length === 0) return '';
  return `<div class="warnings"><strong>Skipped files and notes</strong><ul>${items.map((item) => `<li>${escapeXml(item)}</li>`).join('')}</ul></div>`;
}

function charts(trend: Trend, links: ReadonlyMap<number, string>): string[] {
  return trend.series.map((series) => {
    const describe = (run: number, value: number): string => {
      const info = trend.runs[run - 1];
      return `${info ? describeRun(info) : `run ${run}`}: ${formatValue(value, series.unit)}`;
    };
    const svg = trendChart({ series, runCount: trend.runs.length, links, describe });
    const last = series.segments.at(-1);
    const notes = [
      last ? `now ${formatValue(last.mean, series.unit)} (mean of runs ${last.from}–${last.to})` : '',
      series.changePoints.length ? `${series.changePoints.length} change point${series.changePoints.length === 1 ? '' : 's'}` : 'no change point',
      describeDrift(series) ? `drift ${describeDrift(series)}` : '',
      series.missing.length ? `missing from ${series.missing.length} run${series.missing.length === 1 ? '' : 's'}` : '',
    ].filter(Boolean);
    return figure(series.title, svg, notes.join(' · '), series.metric);
  });
}

/** The page; `links` maps run indexes to the (relative) address of each run's report. */
export function renderTrendHtml(trend: Trend, links: ReadonlyMap<number, string>): string {
  const first = trend.runs[0];
  const newest = trend.runs.at(-1);
  const facts = keyValues([
    ['Profile', trend.profile],
    ['Runs', trend.runs.length],
    ['Oldest', first?.startedAt ?? '—'],
    ['Newest', newest?.startedAt ?? '—'],
    ['Newest run', newest?.runId ?? '—'],
    ['Significance level', String(trend.settings.significance)],
    ['Permutations', trend.settings.permutations],
  ]);
  return htmlDocument(`${trend.regressions.length ? 'REGRESSION' : 'OK'} · coachbench trend · ${trend.profile}`, `${REPORT_CSS}${EXTRA_CSS}`, [
    `<header><h1>coachbench trend: ${escapeXml(trend.profile)}</h1>${verdictBox(trend)}${facts}${notesBox(trend)}</header>`,
    section('changes', 'Change points', changeTable(trend, links)),
    section('metrics', 'Metrics, run by run', grid(charts(trend, links))),
    section('runs', 'Runs', runTable(trend, links)),
    '<footer>Change points: E-divisive means with a permutation test, kept only when the shift is beyond the runs’ own sampling noise and the unit’s floor (see docs/reports.md, “trend”). Each point links to its run’s report.</footer>',
  ]);
}
