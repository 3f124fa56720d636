/**
 * Synthetic histories for the trend tests: a table of per-run values (seeded noise), turned
 * into the observations analyseSeries reads, as if each value came from a run's report.
 */

import type { MetricDirection, MetricUnit } from '../../src/metrics/metric-catalog.js';
import type { Observation, SeriesModel } from '../../src/report/trend/analyse-series.js';
import type { TrendRun, TrendSettings } from '../../src/report/trend/trend-model.js';
import { seededRandom } from '../../src/util/seeded-random.js';

export const SETTINGS: TrendSettings = { significance: 0.05, permutations: 199, minSegment: 2, floors: {} };

/** A standard normal draw from a seeded generator (Box–Muller). */
export function normalDraws(seed: number): () => number {
  const random = seededRandom(seed);
  return () => Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
}

/** `n` runs of `level(i)` (i from 1) with relative noise `cv`, seeded. */
export function table(n: number, level: (run: number) => number, cv: number, seed: number): number[] {
  const draw = normalDraws(seed);
  return Array.from({ length: n }, (_, i) => level(i + 1) * (1 + cv * draw()));
}

export function runStub(index: number): TrendRun {
  return {
    index,
    runId: `nightly-${String(index).padStart(3, '0')}`,
    startedAt: new Date(Date.UTC(2026, 0, 1) + index * 86_400_000).toISOString(),
    verdict: 'pass',
    labels: { release: `v1.${index}` },
    report: `/reports/${index}/report.json`,
  };
}

export interface HistoryOptions {
  metric?: string;
  unit?: MetricUnit;
  direction?: MetricDirection;
  /** Each run's own sampling noise as a fraction of its value (an HDR interval's half width / 1.96). */
  samplingCv?: number;
}

/** A SeriesModel over `values` (run i + 1 holds values[i]). */
export function history(values: readonly number[], options: HistoryOptions = {}): SeriesModel {
  const samplingCv = options.samplingCv ?? 0.01;
  const observations: Observation[] = values.map((value, i) => {
    const sd = Math.abs(value) * samplingCv;
    return { run: runStub(i + 1), value, noise: { variance: sd ** 2, lo: value - 1.96 * sd, hi: value + 1.96 * sd }, schedulingDelay: 0 };
  });
  return {
    metric: options.metric ?? 'chatStreams.eventLatencyMs.p99',
    title: 'delivery latency p99',
    unit: options.unit ?? 'ms',
    direction: options.direction ?? 'lower',
    threshold: null,
    observations,
    missing: [],
  };
}
