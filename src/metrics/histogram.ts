import type { Histogram } from 'hdr-histogram-js';
// By module, not through the package's index, which also loads its log writer (hlog-writer.ts says why not).
import { decodeFromCompressedBase64, encodeIntoCompressedBase64 } from 'hdr-histogram-js/dist/encoding.js';
import { build } from 'hdr-histogram-js/dist/HistogramBuilder.js';
import type { HistogramSummary } from '../contract/report.js';
import { scanHistogram } from './histogram-scan.js';

export type { Histogram };

/*
 * One configuration everywhere so that every encoded histogram can be `add`ed to every
 * other: JS Int32 buckets (JS and WASM histograms cannot be added to each other, and the
 * JS one needs no destroy), 1 µs resolution, 3 significant digits, auto-resizing range.
 */
const BIT_BUCKET_SIZE = 32;
const SIGNIFICANT_DIGITS = 3;

/** A fresh histogram recording integer microseconds. */
export function createHistogram(): Histogram {
  return build({
    bitBucketSize: BIT_BUCKET_SIZE,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 2,
    numberOfSignificantValueDigits: SIGNIFICANT_DIGITS,
    autoResize: true,
    useWebAssembly: false,
  });
}

/** Records a duration given in milliseconds (fractional allowed) as integer microseconds. */
export function recordMs(histogram: Histogram, ms: number): void {
  histogram.recordValue(msToUs(ms));
}

export function msToUs(ms: number): number {
  return ms <= 0 ? 0 : Math.round(ms * 1_000);
}

export function encodeHistogram(histogram: Histogram): string {
  return encodeIntoCompressedBase64(histogram);
}

export function decodeHistogram(base64: string): Histogram {
  if (base64 === '') return createHistogram();
  const decoded = decodeFromCompressedBase64(base64, BIT_BUCKET_SIZE, false);
  // Re-home into our standard configuration so that later `add`s never fail on range.
  const fresh = createHistogram();
  fresh.add(decoded);
  return fresh;
}

/**
 * Lowers a histogram's max to `exactUs`, the exact largest value its parts recorded, which lies
 * in its top bucket (a decoded histogram's max is that bucket's upper edge). The JS
 * histograms built here keep `maxValue` as a plain field; the typing only marks it read-only.
 */
export function settleMax(histogram: Histogram, exactUs: number): void {
  if (exactUs > histogram.maxValue) return;
  (histogram as { maxValue: number }).maxValue = exactUs;
}

const round3 = (value: number): number => Math.round(value * 1_000) / 1_000;

/** The report summary of a histogram of microseconds, expressed in milliseconds. */
export function summarizeHistogram(histogram: Histogram): HistogramSummary {
  const count = histogram.totalCount;
  if (count === 0) {
    return { count: 0, min: 0, mean: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0, hdr: encodeHistogram(histogram) };
  }
  const maxUs = histogram.maxValue;
  // One walk over the counts for all of them; minNonZeroValue would ignore recorded zeros, and
  // a histogram can legitimately hold 0 µs values, so the minimum is the 0th percentile.
  const { valuesAt, mean } = scanHistogram(histogram, [0, 50, 90, 99, 99.9]);
  const [min, p50, p90, p99, p999] = valuesAt as [number, number, number, number, number];
  // HDR percentiles report a bucket's highest equivalent value; never let one exceed the max.
  const at = (valueUs: number): number => round3(Math.min(valueUs, maxUs) / 1_000);
  return {
    count,
    min: round3(min / 1_000),
    mean: round3(mean / 1_000),
    p50: at(p50),
    p90: at(p90),
    p99: at(p99),
    p999: at(p999),
    max: round3(maxUs / 1_000),
    hdr: encodeHistogram(histogram),
  };
}

/** Value in ms at a percentile of an encoded histogram: compare works from HDR data, not rounded summaries. */
export function percentileMs(base64: string, percentile: number): number {
  const histogram = decodeHistogram(base64);
  return histogram.totalCount === 0 ? 0 : histogram.getValueAtPercentile(percentile) / 1_000;
}
