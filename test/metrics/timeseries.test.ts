import { describe, expect, it } from 'vitest';
import { recordMs } from '../../src/metrics/histogram.js';
import { MetricSet } from '../../src/metrics/metric-set.js';
import { CHAT } from '../../src/metrics/names.js';
import { MAX_POINTS, mergePoints, pointFromInterval, TimeseriesBuilder } from '../../src/metrics/timeseries.js';

function interval(events: number, open: number, latencyMs: number): MetricSet {
  const set = new MetricSet();
  set.inc(CHAT.event('KEEP_ALIVE'), events);
  set.peak(CHAT.open, open);
  recordMs(set.histogram(CHAT.eventLatencyUs), latencyMs);
  return set;
}

describe('time series', () => {
  it('keeps at most MAX_POINTS points over an 8-hour run of 1 s intervals, conserving counts', () => {
    const builder = new TimeseriesBuilder();
    const seconds = 8 * 3600;
    for (let t = 1; t <= seconds; t++) builder.add(pointFromInterval(interval(10, t % 100, 2), t, 1));
    const points = builder.toArray();
    expect(points.length).toBeLessThanOrEqual(MAX_POINTS);
    expect(points.length).toBeGreaterThan(MAX_POINTS / 4);
    expect(points.reduce((n, p) => n + p.events, 0)).toBe(10 * seconds);
    expect(points.at(-1)!.tSec).toBe(seconds);
    // Merged buckets keep the rate, and the gauge keeps its peak.
    expect(points[0]!.eventsPerSec).toBe(10);
    expect(Math.max(...points.map((p) => p.streamsOpen))).toBe(99);
  });

  it('merges the same interval of two shards: counts and gauges add, p99 takes the max', () => {
    const a = pointFromInterval(interval(5, 10, 3), 2, 1);
    const b = pointFromInterval(interval(7, 20, 9), 2, 1);
    const merged = mergePoints(a, b, true);
    expect(merged).toMatchObject({ tSec: 2, intervalSec: 1, events: 12, eventsPerSec: 12, streamsOpen: 30 });
    expect(merged.eventLatencyP99Ms).toBeCloseTo(9, 1);
  });
});
