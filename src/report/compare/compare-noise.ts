/**
 * Is a difference between two runs more than sampling noise? Two runs of the same build
 * differ, most of all in the tail: a p99 of 200 samples rests on 2 of them. Compare only
 * calls a change a regression when it is also statistically distinguishable.
 *
 * - Percentiles: a distribution-free ~95 % confidence interval from order statistics: the
 *   q-quantile of n samples lies between the values at ranks n·q ± 1.96·√(n·q·(1−q)),
 *   read from the HDR histogram. Two runs differ when their intervals do not overlap.
 * - Rates (errors / requests): a two-proportion z-test, |z| ≥ 1.96.
 * - Event counts (drops, violations, late slots): two Poisson counts over runs of the same
 *   length, |c − b| / √(b + c) ≥ 1.96; so 0 → 1 or 2 → 3 is noise, 0 → 4 or 100 → 150 is not.
 */
import type { Histogram } from '../../metrics/histogram.js';

/** ~95 % two-sided. Non-overlap of two such intervals is stricter still (fewer false alarms). */
const Z = 1.96;

export interface Interval {
  lo: number;
  hi: number;
}

/** The confidence interval (ms) of the `percentile` (0–100) of a histogram of microseconds. */
export function percentileInterval(histogram: Histogram, percentile: number): Interval {
  const n = histogram.totalCount;
  const q = percentile / 100;
  const half = Z * Math.sqrt((q * (1 - q)) / n);
  const at = (fraction: number): number => {
    if (fraction >= 1) return histogram.maxValue / 1_000;
    return histogram.getValueAtPercentile(Math.max(0, fraction) * 100) / 1_000;
  };
  return { lo: at(q - half), hi: at(q + half) };
}

/** True when two intervals are disjoint: the runs differ beyond sampling noise. */
export function intervalsDiffer(baseline: Interval, candidate: Interval): boolean {
  return candidate.lo > baseline.hi || candidate.hi < baseline.lo;
}

/** Two-proportion z-test of event counts over trial counts; false when either side has no trials. */
export function proportionsDiffer(baseline: { events: number; trials: number }, candidate: { events: number; trials: number }): boolean {
  if (baseline.trials <= 0 || candidate.trials <= 0) return false;
  const p1 = baseline.events / baseline.trials;
  const p2 = candidate.events / candidate.trials;
  const pooled = (baseline.events + candidate.events) / (baseline.trials + candidate.trials);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / baseline.trials + 1 / candidate.trials));
  if (se === 0) return p1 !== p2;
  return Math.abs(p2 - p1) / se >= Z;
}

/** Two Poisson counts of equal exposure (same run length) differ beyond noise. */
export function countsDiffer(baseline: number, candidate: number): boolean {
  const total = baseline + candidate;
  if (total <= 0) return false;
  return Math.abs(candidate - baseline) / Math.sqrt(total) >= Z;
}
