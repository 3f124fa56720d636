import { describe, expect, it } from 'vitest';
import { createHistogram, encodeHistogram, recordMs } from '../../src/metrics/histogram.js';
import { curveDecades, percentileCurve, recordedValues } from '../../src/report/hdr-curve.js';
import { linePath } from '../../src/report/svg/chart-frame.js';
import { binValues } from '../../src/report/svg/distribution-chart.js';
import { percentileChart } from '../../src/report/svg/percentile-chart.js';
import { linearScale, logScale, niceTicks, percentileTickLabel, tickLabel } from '../../src/report/svg/scale.js';

function encoded(valuesMs: readonly number[]): string {
  const histogram = createHistogram();
  for (const value of valuesMs) recordMs(histogram, value);
  return encodeHistogram(histogram);
}

describe('scales and ticks', () => {
  it.each([
    [0, 9.7, [0, 2, 4, 6, 8, 10]],
    [0, 1_234, [0, 500, 1_000, 1_500]],
    [0, 0.33, [0, 0.1, 0.2, 0.3, 0.4]],
    [12_000, 18_000, [12_000, 14_000, 16_000, 18_000]],
    [0, 0, [0, 0.2, 0.4, 0.6, 0.8, 1]],
  ])('niceTicks(%d, %d) → %j', (min, max, expected) => {
    expect(niceTicks(min, max, 5).ticks.map((tick) => tick.value)).toEqual(expected);
  });

  it('never makes fractional ticks for counts', () => {
    expect(niceTicks(0, 2, 5, tickLabel, 1).ticks.map((tick) => tick.value)).toEqual([0, 1, 2]);
  });

  it.each([
    [0, '0%'],
    [1, '90%'],
    [2, '99%'],
    [3, '99.9%'],
    [4, '99.99%'],
    [5, '99.999%'],
  ])('percentile axis decade %d is labelled %s', (decade, label) => {
    expect(percentileTickLabel(decade)).toBe(label);
  });

  it.each([
    [0.25, '0.25'],
    [5, '5'],
    [1_500, '1500'],
    [15_000, '15k'],
    [2_500_000, '2.5M'],
  ])('tickLabel(%d) = %s', (value, label) => {
    expect(tickLabel(value)).toBe(label);
  });

  it('maps domains to ranges, log scale by decades', () => {
    const x = linearScale([0, 10], [100, 200]);
    expect(x(5)).toBe(150);
    const log = logScale([1, 1_000], [0, 300]);
    expect(log(10)).toBeCloseTo(100, 9);
    expect(log(100)).toBeCloseTo(200, 9);
    expect(log(0)).toBe(0);
  });

  it('breaks a line at null values instead of drawing zero', () => {
    const identity = (value: number): number => value;
    expect(
      linePath(
        [
          [1, 1],
          [2, null],
          [3, 3],
          [4, 4],
        ],
        identity,
        identity,
      ),
    ).toBe('M1 1M3 3L4 4');
  });
});

describe('percentile curve from HDR data', () => {
  const values = Array.from({ length: 1_000 }, (_, i) => i + 1); // 1..1000 ms
  const curve = percentileCurve(encoded(values));

  it('maps x = 1/(1-p) and reads values at those percentiles', () => {
    expect(curve.count).toBe(1_000);
    const at90 = curve.points.find((point) => Math.abs(point.x - 10) < 1e-9);
    expect(at90?.percentile).toBeCloseTo(90, 9);
    expect(at90?.valueMs).toBeCloseTo(900, -1);
    const at99 = curve.points.find((point) => Math.abs(point.x - 100) < 1e-9);
    expect(at99?.valueMs).toBeCloseTo(990, -1);
  });

  it('is monotonic and ends on the max at x = count', () => {
    for (let i = 1; i < curve.points.length; i += 1) {
      expect(curve.points[i]?.valueMs).toBeGreaterThanOrEqual(curve.points[i - 1]?.valueMs ?? 0);
    }
    expect(curve.points.at(-1)).toMatchObject({ x: 1_000 });
    expect(curve.points.at(-1)?.valueMs).toBeCloseTo(1_000, 0);
    expect(curveDecades([curve])).toBe(3);
  });

  it('names, but does not draw, a reference line far above the data', () => {
    const svg = percentileChart({
      label: 'latency',
      series: [{ name: 'a', hdr: encoded([1, 2, 3]) }],
      references: [
        { name: 'threshold p99 < 250 ms', valueMs: 250 },
        { name: 'threshold p99 < 5 ms', valueMs: 5 },
      ],
    });
    expect(svg).toContain('threshold p99 &lt; 250 ms (above the chart)');
    expect(svg.match(/<line class="reference"/g)?.length).toBe(1);
    expect(svg).toContain('>6</text>'); // y axis tops out near the 5 ms line, not at 250
  });

  it('is empty for an empty histogram', () => {
    expect(percentileCurve(encoded([]))).toEqual({ count: 0, maxMs: 0, points: [] });
    expect(percentileCurve('').points).toEqual([]);
  });
});

describe('recorded values and bins', () => {
  it('lists every recorded value with its count', () => {
    const values = recordedValues(encoded([5, 5, 5, 7, 20]));
    expect(values.reduce((sum, value) => sum + value.count, 0)).toBe(5);
    expect(values.find((value) => Math.abs(value.valueMs - 5) < 0.01)?.count).toBe(3);
  });

  it('bins values, folding outliers into the edge bins and marking overflow', () => {
    const bins = binValues(
      [
        { valueMs: 1, count: 2 },
        { valueMs: 15, count: 10 },
        { valueMs: 19.99, count: 1 },
        { valueMs: 60, count: 4 },
      ],
      10,
      20,
      5,
    );
    expect(bins.map((bin) => bin.count)).toEqual([2, 0, 10, 0, 5]);
    expect(bins.map((bin) => bin.overflow)).toEqual([false, false, false, false, true]);
    expect(bins[0]).toMatchObject({ from: 10, to: 12 });
  });
});
