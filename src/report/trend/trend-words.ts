/** The words of a trend, shared by the terminal lines, trend.md and trend.html. */
import { formatChange, formatValue } from '../format.js';
import type { Column } from '../scenario-rows.js';
import type { ChangePoint, Trend, TrendDrift, TrendRun, TrendSeries } from './trend-model.js';

/** `release v2.3 · gitSha 1a2b3c4`: labels in a stable order, release and sha first. */
export function describeLabels(labels: Readonly<Record<string, string>>): string {
  const rank = (key: string): number => (key === 'release' ? 0 : key === 'gitSha' ? 1 : 2);
  const keys = Object.keys(labels).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return keys.map((key) => `${key} ${key === 'gitSha' ? (labels[key] as string).slice(0, 12) : labels[key]}`).join(' · ');
}

/** `run 7 (nightly-20261121T020000Z · release v2.3)`. */
export function describeRun(run: Pick<TrendRun, 'index' | 'runId' | 'labels'>): string {
  const labels = describeLabels(run.labels);
  return `run ${run.index} (${run.runId}${labels ? ` · ${labels}` : ''})`;
}

const signed = (value: number, unit: ChangePoint['unit']): string => `${value > 0 ? '+' : value < 0 ? '-' : '±'}${formatValue(Math.abs(value), unit)}`;

/** `+20.1 ms (+412 %)`. */
export function describeShift(change: ChangePoint): string {
  return `${signed(change.shift, change.unit)} (${formatChange(change.relative)})`;
}

/** `99 % interval +18.0 ms … +22.3 ms`. */
export function describeInterval(change: ChangePoint): string {
  return `${Number((change.confidence * 100).toPrecision(4))} % interval ${signed(change.interval.lo, change.unit)} … ${signed(change.interval.hi, change.unit)}`;
}

/** `4.1 ms → 24.2 ms`. */
export function describeLevels(change: ChangePoint): string {
  return `${formatValue(change.before, change.unit)} → ${formatValue(change.after, change.unit)}`;
}

/** `E-divisive p = 0.005`, or `newest run alone` for a provisional change. */
export function describeTest(change: ChangePoint): string {
  return change.pValue === null ? `newest ${change.runsAfter === 1 ? 'run' : `${change.runsAfter} runs`} only (interval test)` : `p = ${change.pValue}`;
}

/** The change-point table's columns, in trend.md and trend.html alike. */
export const CHANGE_COLUMNS: readonly Column[] = [
  { title: 'Metric' },
  { title: 'First run after' },
  { title: 'Before → after', numeric: true },
  { title: 'Shift', numeric: true },
  { title: 'Confidence interval', numeric: true },
  { title: 'Test' },
  { title: 'Kind' },
];

/** Every followed metric's change points, by run, then by metric. */
export function changePointsInOrder(trend: Trend): ChangePoint[] {
  return trend.series.flatMap((series) => series.changePoints).sort((a, b) => a.run - b.run || a.metric.localeCompare(b.metric));
}

/** The run a change point starts at, in words (`run 7` where the trend no longer holds it). */
export function describeChangeRun(change: ChangePoint, runs: readonly TrendRun[]): string {
  const run = runs[change.run - 1];
  return run ? describeRun(run) : `run ${change.run}`;
}

/** A change point's row of the change-point table, under CHANGE_COLUMNS; `runCell` is its run, as the format shows it. */
export function changeRow<Cell>(change: ChangePoint, runCell: Cell): (string | Cell)[] {
  return [
    change.metric,
    runCell,
    describeLevels(change),
    describeShift(change),
    describeInterval(change),
    describeTest(change),
    `${change.kind}${change.provisional ? ' (newest runs only, so far)' : ''}`,
  ];
}

/** One sentence per regression: which metric, since which run, by how much. */
export function regressionSentence(change: ChangePoint, runs: readonly TrendRun[]): string {
  const run = runs[change.run - 1];
  const since = run ? describeRun(run) : `run ${change.run}`;
  const recent = change.provisional ? `, the newest ${change.runsAfter === 1 ? 'run' : `${change.runsAfter} runs`} so far` : '';
  return `${change.metric} regressed since ${since}${recent}: ${describeLevels(change)}, ${describeShift(change)}, ${describeInterval(change)}`;
}

/** `+0.52 ms per run (+0.5 %), p = 0.0001`; null when the series shows no significant drift. */
export function describeDrift(series: TrendSeries): string | null {
  const drift: TrendDrift | null = series.drift;
  if (drift === null || !drift.significant) return null;
  const relative = drift.relativePerRun === null ? '' : ` (${formatChange(drift.relativePerRun)})`;
  return `${signed(drift.slopePerRun, series.unit)} per run${relative}, Mann–Kendall p = ${drift.pValue}`;
}

/** The verdict of the whole trend in one line. */
export function trendVerdict(trend: Trend): string {
  const judged = trend.series.filter((series) => series.threshold !== null).length;
  const changes = trend.series.reduce((sum, series) => sum + series.changePoints.length, 0);
  const head = `${trend.runs.length} runs of ${trend.profile}, ${changes} change point${changes === 1 ? '' : 's'} in ${trend.series.length} metrics`;
  if (trend.regressions.length > 0) {
    return `${head}; the newest run is in a regression of ${trend.regressions.length} thresholded metric${trend.regressions.length === 1 ? '' : 's'}`;
  }
  return `${head}; no regression in the newest run among ${judged} thresholded metric${judged === 1 ? '' : 's'}`;
}
