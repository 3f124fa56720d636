/**
 * Which metrics a trend follows, and the noise model of each one run by run and segment by
 * segment: compare's (compare-noise.ts) order-statistic intervals read from the HDR
 * histograms for percentiles, binomial for error rates, Poisson for event counts.
 */
import type { HistogramSummary, Report } from '../../contract/report.js';
import { decodeHistogram, type Histogram } from '../../metrics/histogram.js';
import { type MetricRef, metricRootObject, proportionCounts, readMetric, resolveMetricPath, statPercentile } from '../../metrics/metric-catalog.js';
import { MIN_TAIL_SAMPLES } from '../compare/compare.js';
import { intervalsDiffer, percentileInterval, proportionsDiffer } from '../compare/compare-noise.js';

/** A metric the trend follows. */
export interface TrackedMetric {
  ref: MetricRef;
  title: string;
}

/** The headline metrics: one small-multiple chart each (docs/reports.md, "trend"). */
const HEADLINE: ReadonlyArray<readonly [string, string]> = [
  ['chatStreams.eventLatencyMs.p50', 'delivery latency p50'],
  ['chatStreams.eventLatencyMs.p99', 'delivery latency p99'],
  ['chatStreams.openLatencyMs.p50', 'stream open latency p50'],
  ['chatStreams.openLatencyMs.p99', 'stream open latency p99'],
  ['chatStreams.keepAliveGapMs.p99', 'KEEP_ALIVE gap p99'],
  ['photoUpload.latencyMs.p50', 'photo upload latency p50'],
  ['photoUpload.latencyMs.p99', 'photo upload latency p99'],
  ['tagLink.latencyMs.p50', 'tag link latency p50'],
  ['tagLink.latencyMs.p99', 'tag link latency p99'],
  ['photoUpload.throughputPerSec', 'photo upload throughput'],
  ['tagLink.throughputPerSec', 'tag link throughput'],
  ['photoUpload.errorRate', 'photo upload error rate'],
  ['tagLink.errorRate', 'tag link error rate'],
  ['generator.eventLoopDelayMs.p99', 'generator event-loop delay p99'],
  ['generator.cpuPercent', 'generator CPU'],
];

export function trackedMetric(path: string, title = path): TrackedMetric {
  const resolved = resolveMetricPath(path.split('.'));
  if (!resolved.ok) throw new Error(`trend metric ${path}: ${resolved.message}`);
  return { ref: resolved.ref, title };
}

export const HEADLINE_METRICS: readonly TrackedMetric[] = HEADLINE.map(([path, title]) => trackedMetric(path, title));

/** The headline metrics of each request kind of a report (docs/design.md §2.15): latency p50 and p99, error rate. */
export function requestKindMetrics(report: Report): TrackedMetric[] {
  return Object.keys(report.scenarios.requests ?? {}).flatMap((kind) => [
    trackedMetric(`requests.${kind}.latencyMs.p50`, `${kind} latency p50`),
    trackedMetric(`requests.${kind}.latencyMs.p99`, `${kind} latency p99`),
    trackedMetric(`requests.${kind}.errorRate`, `${kind} error rate`),
  ]);
}

/** The percentile (0–100) a histogram metric reads, or null when it is not one. */
function percentileOf(ref: MetricRef): number | null {
  if (ref.kind !== 'histogram' || ref.sub === null) return null;
  if (ref.sub === 'p999') return 99.9;
  return statPercentile(ref.sub);
}

function summaryOf(report: Report, ref: MetricRef): HistogramSummary | null {
  const scope = metricRootObject(report, ref.root) as Record<string, unknown> | null;
  // A request kind's field is `<kind>.<field>`: a path inside the root.
  const summary = ref.field
    .split('.')
    .reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), scope) as
    | HistogramSummary
    | undefined;
  return summary && typeof summary.hdr === 'string' && summary.count > 0 ? summary : null;
}

/** 1.96: the ~95 % of compare-noise.ts, turned back into a standard deviation. */
const Z95 = 1.96;

/** A run's own sampling noise of one metric: variance, and the ~95 % interval around its value. */
export interface RunNoise {
  variance: number;
  lo: number;
  hi: number;
}

/** The sampling noise of `ref` in one run, or null when there is no model for it. */
export function runNoise(report: Report, ref: MetricRef, value: number): RunNoise | null {
  const percentile = percentileOf(ref);
  if (percentile !== null) {
    const summary = summaryOf(report, ref);
    if (summary === null) return null;
    const interval = percentileInterval(decodeHistogram(summary.hdr), percentile);
    return { variance: ((interval.hi - interval.lo) / (2 * Z95)) ** 2, lo: interval.lo, hi: interval.hi };
  }
  const counts = proportionCounts(report, ref.root, ref.field);
  if (counts !== null && counts.trials > 0) {
    const p = counts.events / counts.trials;
    const sd = Math.sqrt((p * (1 - p)) / counts.trials);
    return { variance: sd ** 2, lo: Math.max(0, value - Z95 * sd), hi: value + Z95 * sd };
  }
  if (ref.unit === 'count' && ref.direction === 'lower') {
    const sd = Math.sqrt(Math.max(value, 0));
    return { variance: sd ** 2, lo: Math.max(0, value - Z95 * sd), hi: value + Z95 * sd };
  }
  return null;
}

function pooled(reports: readonly Report[], ref: MetricRef): Histogram | null {
  let total: Histogram | null = null;
  for (const report of reports) {
    const summary = summaryOf(report, ref);
    if (summary === null) continue;
    const histogram = decodeHistogram(summary.hdr);
    if (total === null) total = histogram;
    else total.add(histogram);
  }
  return total;
}

/**
 * Whether two groups of runs differ beyond sampling noise, all their samples pooled (HDR
 * histograms add exactly; error counts sum). Undefined when no model applies or a pooled
 * percentile has too few samples beyond it to judge (compare's MIN_TAIL_SAMPLES).
 */
export function groupsDiffer(before: readonly Report[], after: readonly Report[], ref: MetricRef): boolean | undefined {
  const percentile = percentileOf(ref);
  if (percentile !== null) {
    const b = pooled(before, ref);
    const a = pooled(after, ref);
    if (b === null || a === null) return undefined;
    const tail = (histogram: Histogram): number => histogram.totalCount * (1 - percentile / 100);
    if (Math.min(tail(b), tail(a)) < MIN_TAIL_SAMPLES) return undefined;
    return intervalsDiffer(percentileInterval(b, percentile), percentileInterval(a, percentile));
  }
  const sum = (reports: readonly Report[]): { events: number; trials: number } | null => {
    const all = reports.map((report) => proportionCounts(report, ref.root, ref.field));
    if (all.some((counts) => counts === null)) return null;
    return all.reduce<{ events: number; trials: number }>((acc, c) => ({ events: acc.events + (c?.events ?? 0), trials: acc.trials + (c?.trials ?? 0) }), {
      events: 0,
      trials: 0,
    });
  };
  const b = sum(before);
  const a = sum(after);
  return b === null || a === null ? undefined : proportionsDiffer(b, a);
}

/**
 * The generator's own event-loop delay at the metric's percentile in one run: a latency
 * shift smaller than that cannot be told apart from the driver's scheduling (compare's
 * scheduling floor). 0 for metrics that are not target latencies.
 */
export function schedulingDelay(report: Report, ref: MetricRef): number {
  const percentile = percentileOf(ref);
  if (percentile === null || ref.root === 'generator' || ref.unit !== 'ms') return 0;
  const loop = trackedMetric(`generator.eventLoopDelayMs.${ref.sub}`).ref;
  return readMetric(report, loop) ?? 0;
}
