/**
 * One small-multiple chart of a metric's history, in the report's chart frame: each run a
 * point linked to its report, the segments' means as level lines, each change point as a
 * dashed vertical line between the last run before it and the first after, and the
 * newest run's threshold as a reference line.
 */
import { escapeXml } from '../escape.js';
import { chartFrame, emptyChart, type LegendEntry, linePath, PLOT, placeReferences, SERIES_COLORS } from '../svg/chart-frame.js';
import { linearScale, niceTicks, tickLabel } from '../svg/scale.js';
import type { TrendSeries } from './trend-model.js';

const COLORS = { value: SERIES_COLORS[0], segment: SERIES_COLORS[4], regression: '#a4111b', other: SERIES_COLORS[2], threshold: SERIES_COLORS[5] } as const;

export interface TrendChartOptions {
  series: TrendSeries;
  /** Number of runs in the history: every chart shares the same x axis. */
  runCount: number;
  /** The link of each run's report, by run index; a run without one is a plain point. */
  links: ReadonlyMap<number, string>;
  /** The tooltip of a run's point, by run index. */
  describe: (run: number, value: number) => string;
}

const r1 = (value: number): string => (Math.round(value * 10) / 10).toString();

export function trendChart({ series, runCount, links, describe }: TrendChartOptions): string {
  const kind = `trend-${series.metric}`;
  const label = `${series.title} (${series.metric}) over ${runCount} runs`;
  if (series.points.length === 0) return emptyChart(kind, label, 'No run has this metric.');
  const values = series.points.map((point) => point.value);
  const top = Math.max(...values, 0);
  const placed = placeReferences(
    series.threshold ? [{ name: `threshold ${series.threshold.expression}`, value: series.threshold.limit }] : [],
    top,
    (ref) => ref.value,
  );
  const yTicks = niceTicks(Math.min(0, ...values), Math.max(top, ...placed.drawn.map((ref) => ref.value)) * 1.05 || 1, 5, tickLabel);
  const y = linearScale(yTicks.domain, [PLOT.bottom, PLOT.top]);
  const xDomain: [number, number] = runCount > 1 ? [1, runCount] : [0, 2];
  const x = linearScale(xDomain, [PLOT.left + 8, PLOT.right - 8]);
  const xTicks = niceTicks(1, Math.max(2, runCount), 6, tickLabel, 1).ticks.filter((tick) => tick.value >= 1 && tick.value <= runCount);
  const legend: LegendEntry[] = [{ name: series.title, color: COLORS.value }];
  const body: string[] = [];
  for (const ref of placed.drawn) {
    legend.push({ name: ref.name, color: COLORS.threshold, swatch: 'dashed' });
    body.push(`<line class="reference" x1="${PLOT.left}" y1="${r1(y(ref.value))}" x2="${PLOT.right}" y2="${r1(y(ref.value))}" stroke="${COLORS.threshold}"/>`);
  }
  for (const name of placed.named) legend.push({ name, color: COLORS.threshold, swatch: 'dashed' });
  if (series.segments.length > 0) legend.push({ name: 'segment mean', color: COLORS.segment });
  for (const segment of series.segments) {
    const x1 = segment.from === segment.to ? x(segment.from) - 6 : x(segment.from);
    const x2 = segment.from === segment.to ? x(segment.to) + 6 : x(segment.to);
    body.push(`<line class="segment" x1="${r1(x1)}" y1="${r1(y(segment.mean))}" x2="${r1(x2)}" y2="${r1(y(segment.mean))}" stroke="${COLORS.segment}"/>`);
  }
  const hasRegression = series.changePoints.some((change) => change.kind === 'regression');
  if (hasRegression) legend.push({ name: 'change point: regression', color: COLORS.regression, swatch: 'dashed' });
  if (series.changePoints.some((change) => change.kind !== 'regression')) legend.push({ name: 'change point', color: COLORS.other, swatch: 'dashed' });
  for (const change of series.changePoints) {
    const at = r1(x(change.run - 0.5));
    const color = change.kind === 'regression' ? COLORS.regression : COLORS.other;
    body.push(
      `<line class="change" data-run="${change.run}" data-kind="${change.kind}" x1="${at}" y1="${PLOT.top}" x2="${at}" y2="${PLOT.bottom}" stroke="${color}"/>`,
    );
  }
  // The line breaks at runs without the metric instead of bridging them.
  const byRun = new Map(series.points.map((point) => [point.run, point.value]));
  const line = Array.from({ length: runCount }, (_, i) => [i + 1, byRun.get(i + 1) ?? null] as const);
  body.push(`<path class="series" data-series="0" d="${linePath(line, x, y)}" stroke="${COLORS.value}"/>`);
  for (const point of series.points) {
    const dot = `<circle class="run" data-run="${point.run}" cx="${r1(x(point.run))}" cy="${r1(y(point.value))}" r="4.5" fill="${COLORS.value}"><title>${escapeXml(describe(point.run, point.value))}</title></circle>`;
    const href = links.get(point.run);
    body.push(href === undefined ? dot : `<a href="${escapeXml(href)}">${dot}</a>`);
  }
  return chartFrame(
    {
      kind,
      label,
      x: { title: 'run (oldest → newest)', ticks: xTicks, scale: x },
      y: { title: series.unit === 'ms' ? 'ms' : series.unit, ticks: yTicks.ticks, scale: y },
      legend,
    },
    body.join(''),
  );
}
