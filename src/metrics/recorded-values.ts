/**
 * Walks the recorded values of an HDR histogram (µs) bucket by bucket: live outputs turn an
 * interval's histogram into their own buckets without touching each sample again.
 */
import { JsHistogram } from 'hdr-histogram-js/dist/JsHistogram.js';
import type { Histogram } from './histogram.js';

/**
 * Calls `visit` with each distinct recorded value (the highest equivalent value of its HDR
 * bucket, µs) and how many samples it holds. createHistogram() always makes JS histograms;
 * a WebAssembly one (never made here) has no iterator and is not visited.
 */
export function forEachRecordedValue(histogram: Histogram, visit: (valueUs: number, count: number) => void): void {
  if (!(histogram instanceof JsHistogram) || histogram.totalCount === 0) return;
  const iterator = histogram.recordedValuesIterator;
  iterator.reset();
  while (iterator.hasNext()) {
    const step = iterator.next();
    visit(step.valueIteratedTo, step.countAtValueIteratedTo);
  }
}
