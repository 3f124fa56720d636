/**
 * Several percentiles and the mean of a histogram in one pass over its counts.
 * hdr-histogram-js walks the counts from the start for every getValueAtPercentile and steps an
 * iterator object for `mean`; a report asks each histogram for five percentiles and the mean,
 * and each percentile chart for ~200 percentiles. At the end of a run that code is still cold
 * (interpreted), so the walks show in a run's fixed CPU (docs/benchmarks.md, "Figures behind the code").
 * The results are the library's own, exactly: its rounding of the count at a
 * percentile (with its ulp guard), its bucket edges and its order of summation
 * (test/metrics/histogram-scan.test.ts compares them on random histograms).
 */
import type { Histogram } from 'hdr-histogram-js';
import { JsHistogram } from 'hdr-histogram-js/dist/JsHistogram.js';

export interface HistogramScan {
  /** getValueAtPercentile(p) for each requested p, in the order asked. */
  valuesAt: number[];
  /** What `histogram.mean` returns. */
  mean: number;
}

/** The count a percentile needs, as JsHistogram.getValueAtPercentile computes it. */
function countAtPercentile(percentile: number, totalCount: number): number {
  const fp = (Math.min(percentile, 100) / 100) * totalCount;
  const ulp = 2 ** (Math.floor(Math.log2(fp)) - 52);
  return Math.max(Math.ceil(fp - ulp), 1);
}

export function scanHistogram(histogram: Histogram, percentiles: readonly number[]): HistogramScan {
  const total = histogram.totalCount;
  if (!(histogram instanceof JsHistogram) || total === 0) {
    return { valuesAt: percentiles.map((p) => histogram.getValueAtPercentile(p)), mean: histogram.mean };
  }
  const wanted = percentiles.map((percentile, at) => ({ at, percentile, count: countAtPercentile(percentile, total) })).sort((a, b) => a.count - b.count);
  const valuesAt = percentiles.map(() => 0);
  let next = 0;
  let cumulative = 0;
  let sum = 0;
  const length = histogram.countsArrayLength;
  for (let index = 0; index < length; index++) {
    const count = histogram.getCountAtIndex(index);
    if (count === 0) continue;
    cumulative += count;
    const value = histogram.valueFromIndex(index);
    sum += histogram.medianEquivalentValue(value) * count;
    while (next < wanted.length && cumulative >= wanted[next]!.count) {
      const { at, percentile } = wanted[next++]!;
      valuesAt[at] = percentile === 0 ? histogram.lowestEquivalentValue(value) : histogram.highestEquivalentValue(value);
    }
  }
  return { valuesAt, mean: sum / total };
}
