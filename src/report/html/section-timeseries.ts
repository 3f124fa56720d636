/** How the run unfolded: one chart per signal over run time, from report.timeseries. */

import type { Report, TimeseriesPoint } from '../../contract/report.js';
import { formatDuration } from '../../util/duration.js';
import { type LineSeries, lineChart, type ShadedRange } from '../svg/line-chart.js';
import { tickLabel } from '../svg/scale.js';
import { figure, grid, section } from './parts.js';
import { plannedRequestRate, plannedStreams } from './planned-series.js';

/** One value of a point; any record with a `tSec` charts (report.json's points, the live dashboard's samples). */
type Pick<P = TimeseriesPoint> = (point: P) => number | null;

/** Run-time tick labels: `45s`, `1m30s`, `2h05m`. */
export const runTimeLabel = (sec: number): string => (sec < 60 ? `${tickLabel(sec)}s` : formatDuration(sec * 1_000));

export function series<P extends { tSec: number }>(points: readonly P[], name: string, pick: Pick<P>): LineSeries {
  return { name, points: points.map((point) => [point.tSec, pick(point)] as const) };
}

export interface TimeChart {
  kind: string;
  caption: string;
  detail: string;
  yTitle: string;
  series: LineSeries[];
  references?: { name: string; value: number }[];
  integerY?: boolean;
  shadedX?: ShadedRange[];
}

export function renderTimeChart(chart: TimeChart): string {
  const svg = lineChart({
    kind: chart.kind,
    label: `${chart.caption} over run time`,
    xTitle: 'Run time',
    yTitle: chart.yTitle,
    series: chart.series,
    xTickLabel: runTimeLabel,
    integerY: chart.integerY ?? false,
    ...(chart.references ? { references: chart.references } : {}),
    ...(chart.shadedX ? { shadedX: chart.shadedX } : {}),
  });
  return figure(chart.caption, svg, '', chart.detail);
}

const perSec = (count: number, point: TimeseriesPoint): number => (point.intervalSec > 0 ? Math.round((count / point.intervalSec) * 1_000) / 1_000 : count);

/** What a reader must know to read the x axis: a short last interval, and the warm-up thresholds ignore. */
function scaleNotes(points: readonly TimeseriesPoint[]): string {
  const notes: string[] = [];
  const first = points[0];
  const last = points[points.length - 1];
  if (first && last && points.length > 1 && last.intervalSec < first.intervalSec * 0.9) {
    notes.push(
      `The last interval is ${runTimeLabel(last.intervalSec)} long (the run ended inside it): counts are charted per second, so it is drawn to scale.`,
    );
  }
  const warmup = points.filter((point) => point.warmup);
  if (warmup.length > 0) {
    const endSec = Math.max(...warmup.map((point) => point.tSec));
    notes.push(
      `The first ${warmup.length} intervals (to ${runTimeLabel(endSec)}) are the profile's warm-up, shaded grey in each chart: shown, but ignored by thresholds.`,
    );
  }
  const behind = points.filter((point) => point.generatorBehind);
  if (behind.length > 0) {
    notes.push(
      `${behind.length === points.length ? 'Every' : behind.length} interval${behind.length === 1 ? ' is' : 's are'} shaded red: a driver process fell behind there ` +
        "(its event-loop delay p99 exceeded the generator's bound), so their latencies include the driver's own lag.",
    );
  }
  return notes.map((note) => ` ${note}`).join('');
}

const BEHIND_COLOR = '#d62728';

/** Each run of consecutive intervals a driver fell behind in, as one red stretch. */
function behindRanges(points: readonly TimeseriesPoint[]): ShadedRange[] {
  const ranges: ShadedRange[] = [];
  let open: ShadedRange | null = null;
  for (const point of points) {
    if (!point.generatorBehind) {
      open = null;
      continue;
    }
    const from = point.tSec - point.intervalSec;
    if (open) open.to = point.tSec;
    else {
      open = { name: 'driver behind (latencies include its lag)', from, to: point.tSec, color: BEHIND_COLOR };
      ranges.push(open);
    }
  }
  return ranges;
}

/** What every time chart shades: the warm-up (grey) and the intervals a driver fell behind in (red). */
export function shadedRanges(points: readonly TimeseriesPoint[]): ShadedRange[] {
  return [...warmupRange(points), ...behindRanges(points)];
}

/** The warm-up as one shaded stretch of run time, from the start of its first interval to the end of its last. */
export function warmupRange(points: readonly TimeseriesPoint[]): ShadedRange[] {
  const warmup = points.filter((point) => point.warmup);
  if (warmup.length === 0) return [];
  const from = Math.min(...warmup.map((point) => point.tSec - point.intervalSec));
  const to = Math.max(...warmup.map((point) => point.tSec));
  return [{ name: 'warm-up (ignored by thresholds)', from, to }];
}

/** p50 / p90 / p99 of one latency over time; reports before 1.2.0 hold only the p99. */
export function latencyBands<P extends { tSec: number }>(points: readonly P[], what: string, picks: [Pick<P>, Pick<P>, Pick<P>]): LineSeries[] {
  const [p50, p90, p99] = picks;
  const hasBands = points.some((point) => p50(point) !== null || p90(point) !== null);
  const p99Series = series(points, `${what} p99`, p99);
  return hasBands ? [series(points, `${what} p50`, p50), series(points, `${what} p90`, p90), p99Series] : [p99Series];
}

/** The achieved lines, and the plan's line after them when the profile planned this load. */
function withPlan(achieved: LineSeries[], planned: LineSeries | null): LineSeries[] {
  return planned ? [...achieved, planned] : achieved;
}

/** The open streams (chat and main) of each interval, and the plan's line when there is one; the live dashboard draws it too. */
export function openStreamsChart<P extends { tSec: number; streamsOpen: number; mainStreamsOpen: number }>(
  points: readonly P[],
  planned: LineSeries | null,
): TimeChart {
  return {
    kind: 'ts-streams',
    caption: 'Open streams',
    detail: 'the most open in each interval; the planned participants (each holds one of each stream) beside them',
    yTitle: 'Streams',
    integerY: true,
    series: withPlan([series(points, 'chat-session streams', (p) => p.streamsOpen), series(points, 'main streams', (p) => p.mainStreamsOpen)], planned),
  };
}

/** Event delivery latency p50 / p90 / p99 of each interval; the live dashboard draws it too. */
export function deliveryLatencyChart<P extends { tSec: number }>(points: readonly P[], picks: [Pick<P>, Pick<P>, Pick<P>]): TimeChart {
  return {
    kind: 'ts-event-latency',
    caption: 'Event delivery latency per interval',
    detail: 'p50 / p90 / p99 of each interval; gaps mean no samples in that interval',
    yTitle: 'Latency (ms)',
    series: latencyBands(points, 'delivery', picks),
  };
}

export function timeseriesSection(report: Report): string {
  const points = report.timeseries;
  if (points.length === 0) return section('timeseries', 'Over time', '<p class="muted">No interval data recorded.</p>');
  const interval = points[0]?.intervalSec ?? 0;
  const charts: TimeChart[] = [
    openStreamsChart(points, plannedStreams(report.plan)),
    {
      kind: 'ts-events',
      caption: 'Stream events per second',
      detail: 'all events received on chat-session streams',
      yTitle: 'Events/s',
      series: [series(points, 'events/s', (p) => p.eventsPerSec)],
    },
    {
      kind: 'ts-requests',
      caption: 'HTTP requests per second',
      detail: "photo uploads and tag links (injected messages are in the stream events), and the open model's planned arrival rate",
      yTitle: 'Requests/s',
      series: withPlan([series(points, 'requests/s', (p) => p.requestsPerSec)], plannedRequestRate(report.plan)),
    },
    {
      kind: 'ts-errors',
      caption: 'Errors and KEEP_ALIVE violations per second',
      // Per second, not per interval: a short last interval is drawn to scale, not as a cliff.
      detail: 'count in each interval divided by its length',
      yTitle: 'Per second',
      series: [series(points, 'request errors', (p) => perSec(p.errors, p)), series(points, 'KEEP_ALIVE violations', (p) => perSec(p.keepAliveViolations, p))],
    },
    deliveryLatencyChart(points, [(p) => p.eventLatencyP50Ms ?? null, (p) => p.eventLatencyP90Ms ?? null, (p) => p.eventLatencyP99Ms]),
    {
      kind: 'ts-request-latency',
      caption: 'Request latency per interval',
      detail: 'p50 / p90 / p99 of the slower of photo upload and tag link in each interval; gaps mean no requests',
      yTitle: 'Latency (ms)',
      series: latencyBands(points, 'request', [(p) => p.requestLatencyP50Ms ?? null, (p) => p.requestLatencyP90Ms ?? null, (p) => p.requestLatencyP99Ms]),
    },
  ];
  const shaded = shadedRanges(points);
  if (shaded.length > 0) for (const chart of charts) chart.shadedX = shaded;
  const intro = `<p class="muted">${points.length} intervals${interval > 0 ? ` of about ${runTimeLabel(interval)}` : ''}; x = seconds since the run started.${scaleNotes(points)}</p>`;
  return section('timeseries', 'Over time', intro + grid(charts.map(renderTimeChart)));
}
