/**
 * Shapes drawn from encoded HDR histograms: the percentile curve (HdrHistogram plot style)
 * and the recorded value/count pairs (for distributions). Always from the exact HDR data,
 * never from the rounded summary fields.
 */
import { JsHistogram } from 'hdr-histogram-js/dist/JsHistogram.js';
import { decodeHistogram } from '../metrics/histogram.js';
import { scanHistogram } from '../metrics/histogram-scan.js';

export interface CurvePoint {
  /** 1 / (1 - p): 1 at the median's left end (0 %), 10 at 90 %, 100 at 99 %, ... */
  x: number;
  percentile: number;
  valueMs: number;
}

export interface PercentileCurve {
  count: number;
  maxMs: number;
  points: CurvePoint[];
}

const STEPS_PER_DECADE = 40;
/** Beyond 99.9999 % no run of this tool has enough samples to say anything. */
const MAX_X = 1_000_000;

/**
 * Samples the percentile curve log-evenly in x = 1/(1-p), up to x = count (past that every
 * percentile is the max), and ends on the max itself.
 */
export function percentileCurve(base64: string): PercentileCurve {
  const histogram = decodeHistogram(base64);
  const count = histogram.totalCount;
  if (count === 0) return { count: 0, maxMs: 0, points: [] };
  const maxMs = histogram.maxValue / 1_000;
  const xEnd = Math.max(10, Math.min(count, MAX_X));
  const steps = Math.ceil(Math.log10(xEnd) * STEPS_PER_DECADE);
  const xs = Array.from({ length: steps }, (_, i) => 10 ** (i / STEPS_PER_DECADE));
  const percentiles = xs.map((x) => 100 * (1 - 1 / x));
  const { valuesAt } = scanHistogram(histogram, percentiles);
  const points: CurvePoint[] = xs.map((x, i) => ({ x, percentile: percentiles[i]!, valueMs: valuesAt[i]! / 1_000 }));
  points.push({ x: xEnd, percentile: 100 * (1 - 1 / xEnd), valueMs: maxMs });
  return { count, maxMs, points };
}

/** The smallest x-axis decade that holds a curve: 10 (90 %) at least. */
export function curveDecades(curves: readonly PercentileCurve[]): number {
  const largest = Math.max(10, ...curves.map((curve) => Math.min(curve.count, MAX_X)));
  return Math.max(1, Math.ceil(Math.log10(largest) - 1e-9));
}

export interface RecordedValue {
  valueMs: number;
  count: number;
}

/** Every distinct recorded value (HDR bucket) with its count, ascending. */
export function recordedValues(base64: string): RecordedValue[] {
  const histogram = decodeHistogram(base64);
  if (histogram.totalCount === 0) return [];
  if (!(histogram instanceof JsHistogram)) {
    // Our histograms are JS-backed (see metrics/histogram.ts); keep a coarse answer otherwise.
    return [{ valueMs: histogram.getValueAtPercentile(50) / 1_000, count: histogram.totalCount }];
  }
  const values: RecordedValue[] = [];
  const iterator = histogram.recordedValuesIterator;
  iterator.reset();
  while (iterator.hasNext()) {
    const step = iterator.next();
    values.push({ valueMs: step.valueIteratedTo / 1_000, count: step.countAtValueIteratedTo });
  }
  return values;
}
