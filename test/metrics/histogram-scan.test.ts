/**
 * scanHistogram (src/metrics/histogram-scan.ts) answers percentiles and the mean in one walk
 * over a histogram's counts: it must answer exactly what hdr-histogram-js itself does, for
 * every shape of data a run records.
 */
import { describe, expect, it } from 'vitest';
import { createHistogram, decodeHistogram, encodeHistogram, type Histogram, summarizeHistogram } from '../../src/metrics/histogram.js';
import { scanHistogram } from '../../src/metrics/histogram-scan.js';
import { percentileCurve } from '../../src/report/hdr-curve.js';
import { seededRandom } from '../../src/util/seeded-random.js';

const SHAPES: Record<string, (next: () => number) => number> = {
  'uniform 0..20 ms': (next) => Math.floor(next() * 20_000),
  'log-normal with a long tail': (next) => Math.floor(Math.exp(7 + 2 * Math.sqrt(-2 * Math.log(next() || 1e-9)) * Math.cos(2 * Math.PI * next()))),
  'mostly zeros': (next) => (next() < 0.9 ? 0 : Math.floor(next() * 1_000)),
  'a few distinct values': (next) => [3, 3_000, 3_000_000][Math.floor(next() * 3)]!,
  'huge values': (next) => Math.floor(next() * 3_600_000_000),
};

const PERCENTILES = [0, 0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 99.999, 100, 100 * (1 - 1 / 37)];

function filled(shape: (next: () => number) => number, count: number, seed: number): Histogram {
  // Seeded, so a failure names its data.
  const next = seededRandom(seed);
  const histogram = createHistogram();
  for (let i = 0; i < count; i++) histogram.recordValue(shape(next));
  return histogram;
}

describe('scanHistogram', () => {
  for (const [name, shape] of Object.entries(SHAPES)) {
    it.each([1, 7, 1_000, 50_000])(`answers what hdr-histogram-js answers: ${name}, %i values`, (count) => {
      for (const seed of [1, 2, 3]) {
        const histogram = filled(shape, count, seed * 1_000 + count);
        const scan = scanHistogram(histogram, PERCENTILES);
        expect(scan.valuesAt, `seed ${seed}`).toEqual(PERCENTILES.map((p) => histogram.getValueAtPercentile(p)));
        expect(scan.mean, `seed ${seed}`).toBe(histogram.mean);
      }
    });
  }

  it('answers an empty histogram as the library does', () => {
    const empty = createHistogram();
    expect(scanHistogram(empty, [0, 50, 100])).toEqual({ valuesAt: [0, 0, 0], mean: 0 });
  });

  it('gives the report summary and the percentile curve the library values', () => {
    const histogram = filled(SHAPES['log-normal with a long tail']!, 20_000, 42);
    const summary = summarizeHistogram(histogram);
    const maxUs = histogram.maxValue;
    const ms = (us: number): number => Math.round((Math.min(us, maxUs) / 1_000) * 1_000) / 1_000;
    expect(summary.p99).toBe(ms(histogram.getValueAtPercentile(99)));
    expect(summary.p999).toBe(ms(histogram.getValueAtPercentile(99.9)));
    expect(summary.min).toBe(Math.round(histogram.getValueAtPercentile(0)) / 1_000);
    expect(summary.mean).toBe(Math.round(histogram.mean) / 1_000);
    const curve = percentileCurve(encodeHistogram(histogram));
    const decoded = decodeHistogram(encodeHistogram(histogram));
    for (const point of curve.points.slice(0, -1)) expect(point.valueMs).toBe(decoded.getValueAtPercentile(point.percentile) / 1_000);
  });
});
