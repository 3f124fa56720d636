import { describe, expect, it } from 'vitest';
import { MetricSet } from '../../src/metrics/metric-set.js';
import { mergeSlowest } from '../../src/metrics/slowest.js';
import { mergePoints, pointFromInterval } from '../../src/metrics/timeseries.js';

const id = (n: number): string => n.toString(16).padStart(32, '0');

describe('MetricSet slowest', () => {
  it('keeps the 5 slowest per key, slowest first, whatever the order they come in', () => {
    const set = new MetricSet();
    const latencies = [12, 3, 40, 7, 40.5, 1, 99, 15, 2, 60];
    for (const [i, ms] of latencies.entries()) set.slow('tagLink', id(i + 1), ms);
    const atMs = expect.any(Number);
    expect(set.slowestOf('tagLink')).toEqual([
      { traceId: id(7), latencyMs: 99, atMs },
      { traceId: id(10), latencyMs: 60, atMs },
      { traceId: id(5), latencyMs: 40.5, atMs },
      { traceId: id(3), latencyMs: 40, atMs },
      { traceId: id(8), latencyMs: 15, atMs },
    ]);
    expect(set.slowestOf('photoUpload')).toEqual([]);
  });

  it('merges workers and shards to the slowest 5 of the union, through the encoded form', () => {
    const a = new MetricSet();
    const b = new MetricSet();
    for (let i = 0; i < 20; i++) (i % 2 === 0 ? a : b).slow('photoUpload', id(i + 1), i);
    b.slow('chatStreams.delivery', id(99), 250);
    const total = new MetricSet();
    total.addEncoded(a.encode(), true);
    total.addEncoded(b.encode(), true);
    expect(total.slowestOf('photoUpload').map((s) => s.latencyMs)).toEqual([19, 18, 17, 16, 15]);
    expect(total.encode().slowest?.['chatStreams.delivery']).toEqual([{ traceId: id(99), latencyMs: 250, atMs: b.slowestOf('chatStreams.delivery')[0]!.atMs }]);
    const added = new MetricSet();
    added.add(a);
    added.add(b);
    expect(added.slowestOf('photoUpload')).toEqual(total.slowestOf('photoUpload'));
  });

  it('stamps a kept request with the time it was kept, and merges keep that time', async () => {
    const worker = new MetricSet();
    const before = Date.now();
    worker.slow('tagLink', id(1), 30);
    const after = Date.now();
    const atMs = worker.slowestOf('tagLink')[0]!.atMs!;
    expect(atMs).toBeGreaterThanOrEqual(before);
    expect(atMs).toBeLessThanOrEqual(after);
    // Merged later (a worker's interval, then the run's total): the request's time, not the merge's.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const parent = new MetricSet();
    parent.addEncoded(worker.encode(), true);
    const total = new MetricSet();
    total.add(parent);
    expect(total.slowestOf('tagLink')).toEqual([{ traceId: id(1), latencyMs: 30, atMs }]);
    // An older encoded set kept no time: none is made up.
    const old = new MetricSet();
    old.addEncoded({ counters: {}, peaks: {}, histograms: {}, samples: {}, slowest: { tagLink: [{ traceId: id(2), latencyMs: 5 }] } });
    expect(old.slowestOf('tagLink')).toEqual([{ traceId: id(2), latencyMs: 5 }]);
  });

  it('is absent from an encoded set without traced requests, and emptied by reset', () => {
    const set = new MetricSet();
    set.inc('x');
    expect('slowest' in set.encode()).toBe(false);
    set.slow('tagLink', id(1), 5);
    set.reset();
    expect('slowest' in set.encode()).toBe(false);
  });
});

describe('time-series slowest', () => {
  it('lists an interval slowest on its point, and a merged point keeps the slowest of both', () => {
    const first = new MetricSet();
    const second = new MetricSet();
    for (let i = 0; i < 5; i++) first.slow('tagLink', id(i + 1), 10 + i);
    for (let i = 0; i < 5; i++) second.slow('tagLink', id(i + 11), 12.3456 + i);
    const a = pointFromInterval(first, 1, 1);
    const b = pointFromInterval(second, 2, 1);
    expect(a.slowest?.tagLink?.[0]).toEqual({ traceId: id(5), latencyMs: 14, atMs: expect.any(Number) });
    expect(b.slowest?.tagLink?.[0]).toEqual({ traceId: id(15), latencyMs: 16.346, atMs: expect.any(Number) });
    expect(mergePoints(a, b).slowest?.tagLink?.map((s) => s.latencyMs)).toEqual([16.346, 15.346, 14.346, 14, 13.346]);
    expect('slowest' in pointFromInterval(new MetricSet(), 3, 1)).toBe(false);
    expect('slowest' in mergePoints(pointFromInterval(new MetricSet(), 3, 1), pointFromInterval(new MetricSet(), 4, 1))).toBe(false);
  });

  it('mergeSlowest keeps keys of either side', () => {
    expect(mergeSlowest({ a: [{ traceId: id(1), latencyMs: 1 }] }, undefined)).toEqual({ a: [{ traceId: id(1), latencyMs: 1 }] });
    expect(mergeSlowest(undefined, undefined)).toBeUndefined();
  });
});
