import { describe, expect, it } from 'vitest';
import { recordMs } from '../../src/metrics/histogram.js';
import { MetricSet } from '../../src/metrics/metric-set.js';
import { CHAT, throughputNames } from '../../src/metrics/names.js';
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

  it('carries the interval p50 / p90 / p99 of delivery, and of the slower request scenario', () => {
    const set = new MetricSet();
    // 100 deliveries of 1..100 ms: p50 50, p90 90, p99 99 (HDR keeps 3 significant digits).
    for (let ms = 1; ms <= 100; ms++) recordMs(set.histogram(CHAT.eventLatencyUs), ms);
    for (let ms = 1; ms <= 100; ms++) recordMs(set.histogram(throughputNames('photoUpload').latencyUs), ms * 2);
    for (let ms = 1; ms <= 100; ms++) recordMs(set.histogram(throughputNames('tagLink').latencyUs), ms);
    const point = pointFromInterval(set, 1, 1);
    expect([point.eventLatencyP50Ms, point.eventLatencyP90Ms, point.eventLatencyP99Ms].map((v) => Math.round(v ?? -1))).toEqual([50, 90, 99]);
    expect([point.requestLatencyP50Ms, point.requestLatencyP90Ms, point.requestLatencyP99Ms].map((v) => Math.round(v ?? -1))).toEqual([100, 180, 198]);
    // No samples: null, as for the p99.
    expect(pointFromInterval(new MetricSet(), 1, 1)).toMatchObject({ eventLatencyP50Ms: null, requestLatencyP90Ms: null });
  });

  it('merges p50 / p90 as an upper bound (the max), and leaves them absent when both points predate them', () => {
    const a = pointFromInterval(interval(5, 10, 3), 2, 1);
    const b = pointFromInterval(interval(7, 20, 9), 2, 1);
    const merged = mergePoints(a, b, true);
    expect(merged.eventLatencyP50Ms).toBeCloseTo(9, 1);
    expect(merged.eventLatencyP90Ms).toBeCloseTo(9, 1);
    const strip = ({ eventLatencyP50Ms, eventLatencyP90Ms, requestLatencyP50Ms, requestLatencyP90Ms, ...old }: typeof a) => old;
    const oldMerged = mergePoints(strip(a), strip(b), false);
    expect(Object.keys(oldMerged)).not.toContain('eventLatencyP50Ms');
    expect(Object.keys(oldMerged)).not.toContain('requestLatencyP90Ms');
    // One side old, one new (a merge of reports from two versions): the new side's value.
    expect(mergePoints(strip(a), b, true).eventLatencyP90Ms).toBeCloseTo(9, 1);
  });
});
