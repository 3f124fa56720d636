/** Time series alignment by elapsed interval, on hand-made points (pure, no timers). */
import { describe, expect, it } from 'vitest';
import type { TimeseriesPoint } from '../../../src/contract/report.js';
import { alignTimeseries } from '../../../src/report/merge/merge-timeseries.js';

/** A point ending at `tSec` covering `intervalSec`, with `events` events and `open` streams. */
function point(tSec: number, intervalSec: number, events: number, open: number): TimeseriesPoint {
  return {
    tSec,
    intervalSec,
    streamsOpen: open,
    mainStreamsOpen: open,
    events,
    eventsPerSec: events / intervalSec,
    keepAlives: 0,
    keepAliveViolations: 0,
    errors: 0,
    requests: 0,
    requestsPerSec: 0,
    messagesSent: events,
    eventLatencyP99Ms: events > 0 ? events : null,
    requestLatencyP99Ms: null,
    eventLoopDelayP99Ms: null,
    rssBytes: 1_000,
  };
}

const pick = (points: TimeseriesPoint[]) => points.map((p) => ({ tSec: p.tSec, intervalSec: p.intervalSec, events: p.events, streamsOpen: p.streamsOpen }));

describe('alignTimeseries', () => {
  it('adds the same elapsed interval of shards whose ticks jitter by a few ms', () => {
    const a = [point(1.0, 1.0, 10, 3), point(2.001, 1.001, 20, 3), point(2.056, 0.055, 1, 3)];
    const b = [point(1.004, 1.004, 5, 2), point(2.003, 0.999, 7, 2), point(2.097, 0.094, 2, 2)];
    expect(pick(alignTimeseries([a, b]))).toEqual([
      { tSec: 1.004, intervalSec: 1.004, events: 15, streamsOpen: 5 },
      { tSec: 2.003, intervalSec: 1.001, events: 27, streamsOpen: 5 },
      { tSec: 2.097, intervalSec: 0.094, events: 3, streamsOpen: 5 },
    ]);
  });

  it('brings a finer shard to the coarsest shard resolution (compaction happened in one only)', () => {
    const fine = [point(1, 1, 1, 4), point(2, 1, 2, 6), point(3, 1, 3, 5), point(4, 1, 4, 5)];
    const coarse = [point(2, 2, 10, 1), point(4, 2, 20, 1)];
    const merged = alignTimeseries([fine, coarse]);
    expect(pick(merged)).toEqual([
      // Within the fine shard the two seconds add in time (gauge: max), then the shards add.
      { tSec: 2, intervalSec: 2, events: 13, streamsOpen: 7 },
      { tSec: 4, intervalSec: 2, events: 27, streamsOpen: 6 },
    ]);
    expect(merged[0]!.eventsPerSec).toBe(6.5);
    expect(merged[0]!.eventLatencyP99Ms).toBe(10);
  });

  it('keeps one late tick in its own second instead of widening every bucket', () => {
    const late = [point(1.6, 1.6, 16, 1), point(2.6, 1.0, 10, 1), point(3.6, 1.0, 10, 1)];
    const steady = [point(1, 1, 1, 1), point(2, 1, 1, 1), point(3, 1, 1, 1), point(3.5, 0.5, 1, 1)];
    expect(alignTimeseries([late, steady]).map((p) => p.events)).toEqual([17, 1, 11, 11]);
  });

  it('is empty for no points, and one shard passes through unchanged', () => {
    expect(alignTimeseries([[], []])).toEqual([]);
    const only = [point(1, 1, 3, 1), point(2, 1, 4, 1)];
    expect(alignTimeseries([only])).toEqual(only);
  });
});
