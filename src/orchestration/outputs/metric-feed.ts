/**
 * Turns one interval into the exported metrics (src/metrics/exported-metrics.ts), for any
 * metrics library: the Prometheus and OTLP outputs each supply the three writes, and both
 * export the same numbers under the same names.
 */

import type { SlowRequest } from '../../contract/encoded-metrics.js';
import {
  EXPORTED,
  type ExportedCount,
  type ExportedKey,
  exportedCountsOf,
  HISTOGRAM_SOURCES,
  KIND_LABEL,
  KIND_LATENCY,
  SCENARIOS,
} from '../../metrics/exported-metrics.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import { type ThroughputKey, throughputNames } from '../../metrics/names.js';
import { forEachRecordedValue } from '../../metrics/recorded-values.js';
import { SLOWEST_KEY_OF_HISTOGRAM } from '../../metrics/slowest.js';
import type { IntervalSample } from './live-output.js';

export type Labels = Record<string, string>;

/** The writes a metrics library offers. */
export interface MetricWriter {
  add(key: ExportedKey, labels: Labels, value: number): void;
  set(key: ExportedKey, labels: Labels, value: number): void;
  /** Records `count` samples of `valueSec` into a histogram. */
  observe(key: ExportedKey, labels: Labels, valueSec: number, count: number): void;
  /**
   * Marks an observed value of a histogram with the trace id (and span id, where kept) of
   * the request behind it (an exemplar), and when that request completed (`atMs`, where
   * kept); absent where the library has none to offer.
   */
  exemplar?(key: ExportedKey, labels: Labels, valueSec: number, slow: Readonly<SlowRequest>): void;
}

const CHECK_STATUSES = ['pass', 'fail', 'skip'] as const;
const THRESHOLD_STATUSES = ['pass', 'fail'] as const;

/**
 * Mean requests in flight over an interval by Little's law (L = λW): completions per second
 * times the mean service time. Exact for the interval's average, and needs no counter in
 * the drivers' request path.
 */
export function meanInFlight(interval: MetricSet, scenario: ThroughputKey, intervalSec: number): number {
  const names = throughputNames(scenario);
  if (intervalSec <= 0 || !interval.hasHistogram(names.serviceTimeUs)) return 0;
  const service = interval.histogram(names.serviceTimeUs);
  if (service.totalCount === 0) return 0;
  return (service.totalCount / intervalSec) * (service.mean / 1e6);
}

/** The request kinds' latency histograms of an interval, as exported series (docs/design.md §2.15). */
function kindHistograms(interval: MetricSet): Array<{ key: ExportedKey; source: string; labels: Labels }> {
  return interval.histogramNames().flatMap((source) => {
    const kind = KIND_LATENCY.exec(source)?.[1];
    return kind === undefined ? [] : [{ key: 'requestDuration' as const, source, labels: { scenario: 'requests', [KIND_LABEL]: kind } }];
  });
}

/** A request kind keeps its slowest traced requests under `requests.<kind>`, its scenario key. */
const kindSlowestKey = (source: string): string | undefined => {
  const kind = KIND_LATENCY.exec(source)?.[1];
  return kind === undefined ? undefined : `requests.${kind}`;
};

/** Feeds intervals to one writer; remembers where each internal counter goes. */
export class MetricFeed {
  private readonly routes = new Map<string, ExportedCount[]>();
  /** Request kinds seen so far: their in-flight gauge is set every interval, 0 when idle, as the built-ins' is. */
  private readonly kinds = new Set<string>();

  constructor(private readonly writer: MetricWriter) {}

  feed({ point, interval, verdict }: IntervalSample): void {
    const w = this.writer;
    for (const [name, value] of Object.entries(interval.encodeCounters())) {
      let routes = this.routes.get(name);
      if (!routes) {
        routes = exportedCountsOf(name);
        this.routes.set(name, routes);
      }
      for (const { key, labels, scale } of routes) w.add(key, labels, scale === undefined ? value : value * scale);
    }
    w.set('openStreams', { stream: 'chat' }, point.streamsOpen);
    w.set('openStreams', { stream: 'main' }, point.mainStreamsOpen);
    for (const scenario of SCENARIOS) w.set('requestsInFlight', { scenario }, meanInFlight(interval, scenario, point.intervalSec));
    for (const { labels } of kindHistograms(interval)) this.kinds.add(labels[KIND_LABEL] as string);
    for (const kind of this.kinds) {
      w.set('requestsInFlight', { scenario: 'requests', [KIND_LABEL]: kind }, meanInFlight(interval, `requests.${kind}`, point.intervalSec));
    }
    for (const { key, source, labels } of [...HISTOGRAM_SOURCES, ...kindHistograms(interval)]) {
      if (!interval.hasHistogram(source)) continue;
      forEachRecordedValue(interval.histogram(source), (valueUs, count) => w.observe(key, labels, valueUs / 1e6, count));
      // The interval's slowest traced requests, slowest last: a bucket keeps its latest exemplar.
      const slowestKey = SLOWEST_KEY_OF_HISTOGRAM[source] ?? kindSlowestKey(source);
      if (w.exemplar === undefined || slowestKey === undefined) continue;
      const slowest = interval.slowestOf(slowestKey);
      for (let i = slowest.length - 1; i >= 0; i--) w.exemplar(key, labels, slowest[i]!.latencyMs / 1e3, slowest[i]!);
    }
    w.set('elapsed', {}, point.tSec);
    const live = verdict();
    for (const check of live.checks) {
      for (const status of CHECK_STATUSES) w.set('checkStatus', { check: check.id, status }, check.status === status ? 1 : 0);
    }
    for (const threshold of live.thresholds) {
      for (const status of THRESHOLD_STATUSES) w.set('thresholdStatus', { threshold: threshold.expression, status }, threshold.status === status ? 1 : 0);
    }
  }
}

/** Every exported key, in table order. */
export const EXPORTED_KEYS = Object.keys(EXPORTED) as ExportedKey[];
