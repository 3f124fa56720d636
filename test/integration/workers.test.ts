/**
 * `--workers 2`: two driver processes, one report whose counts equal the sum of its
 * workers' own totals (the live interval merge loses nothing), and a worker that dies is
 * reported under the profile's policy instead of hanging the run.
 */
import { describe, expect, it } from 'vitest';
import { IntervalMerger } from '../../src/run/workers/interval-merger.js';
import { MetricSet } from '../../src/metrics/metric-set.js';
import { quickProfile, runProfile } from './run-helpers.js';

describe('--workers', () => {
  it('writes one report whose counters are the sums of its workers', async () => {
    const { report, exitCode } = await runProfile(quickProfile(), { workers: 2 });
    expect(exitCode, report.checks.filter((c) => c.status === 'fail').map((c) => c.detail).join('\n')).toBe(0);
    expect(report.generator.processes).toBe(2);
    const workers = report.workers!;
    expect(workers.map((w) => w.participants)).toEqual([12, 12]);
    for (const [name, merged] of Object.entries(report.metrics.counters)) {
      const sum = workers.reduce((n, w) => n + (w.counters?.[name] ?? 0), 0);
      expect(merged, name).toBe(sum);
    }
    const chat = report.scenarios.chatStreams!;
    expect(chat.mainStreams.peakConcurrent).toBe(24);
    expect(chat.deliveriesReceived).toBeGreaterThan(20);
    expect(report.timeseries.length).toBeGreaterThanOrEqual(3);
  });
});

describe('IntervalMerger', () => {
  const encoded = (n: number) => {
    const set = new MetricSet();
    set.inc('x', n);
    return set.encode();
  };

  it('releases an interval once every live worker reported it, in order', () => {
    const released: Array<[number, number]> = [];
    const merger = new IntervalMerger(2, (set, _s, endSec) => released.push([endSec, set.count('x')]));
    merger.add(0, 0, 0, 1, encoded(1));
    merger.add(0, 1, 1, 2, encoded(2));
    expect(released).toEqual([]);
    merger.add(1, 1, 1, 2, encoded(20));
    expect(released).toEqual([]);
    merger.add(1, 0, 0, 1, encoded(10));
    expect(released).toEqual([[1, 11], [2, 22]]);
  });

  it('stops waiting for a retired worker and drains the rest at the end', () => {
    const released: number[] = [];
    const merger = new IntervalMerger(2, (set) => released.push(set.count('x')));
    merger.add(0, 0, 0, 1, encoded(1));
    merger.retire(1);
    expect(released).toEqual([1]);
    merger.add(0, 2, 2, 3, encoded(3));
    merger.drain();
    expect(released).toEqual([1, 3]);
  });
});
