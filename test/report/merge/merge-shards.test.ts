/**
 * Four shards of one profile against one reference target, merged: counts are the sums,
 * percentiles are those of one histogram fed every shard's values, the time series lines
 * up by elapsed interval, and thresholds are judged on the merged data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report, TimeseriesPoint } from '../../../src/contract/report.js';
import { validateReport } from '../../../src/contract/validate-report.js';
import { createHistogram, decodeHistogram, settleMax, summarizeHistogram } from '../../../src/metrics/histogram.js';
import { mergeReports } from '../../../src/report/merge/merge-reports.js';
import { type ShardBench, type ShardRun, shardBench } from '../../support/shard-runs.js';

let bench: ShardBench;
let shards: ShardRun[];
let merged: Report;

beforeAll(async () => {
  bench = await shardBench();
  const target = await bench.target();
  // Side by side, as four machines would run them.
  shards = await Promise.all([0, 1, 2, 3].map((i) => bench.shard(target.url, i, 4)));
  // Handed over out of order: the merge orders shards itself.
  const order = [2, 0, 3, 1];
  merged = mergeReports(
    order.map((i) => shards[i]!.report),
    order.map((i) => shards[i]!.path),
  );
});
afterAll(() => bench.close());

const sumOf = (pick: (r: Report) => number): number => shards.reduce((sum, s) => sum + pick(s.report), 0);

describe('coachbench merge of 4 shards', () => {
  it('ran four real, disjoint shards', () => {
    for (const [i, s] of shards.entries()) {
      expect(s.report.shard).toEqual({ index: i, count: 4 });
      // Each shard says what it held: every 4th of the 24 participants, and a quarter of the plan.
      expect(s.report.scenarios.chatStreams!.participants).toBe(6);
      expect(s.report.plan!.scenarios[0]!.stages.at(-1)!.to).toBe(6);
      expect(s.report.scenarios.chatStreams!.opened).toBeGreaterThan(0);
      expect(s.report.scenarios.chatStreams!.deliveriesReceived).toBeGreaterThan(0);
    }
  });

  it('sums every counter and every concurrent gauge exactly', () => {
    const names = new Set(shards.flatMap((s) => Object.keys(s.report.metrics.counters)));
    expect(names.size).toBeGreaterThan(10);
    for (const name of names) expect(merged.metrics.counters[name], name).toBe(sumOf((r) => r.metrics.counters[name] ?? 0));
    const chat = merged.scenarios.chatStreams!;
    expect(chat.opened).toBe(sumOf((r) => r.scenarios.chatStreams!.opened));
    expect(chat.deliveriesReceived).toBe(sumOf((r) => r.scenarios.chatStreams!.deliveriesReceived));
    expect(chat.events.KEEP_ALIVE).toBe(sumOf((r) => r.scenarios.chatStreams!.events.KEEP_ALIVE ?? 0));
    // Shards hold their streams at the same time: their peaks add.
    expect(chat.peakConcurrent).toBe(sumOf((r) => r.scenarios.chatStreams!.peakConcurrent));
    expect(merged.generator.processes).toBe(4);
    expect(merged.generator.rssBytes).toBe(sumOf((r) => r.generator.rssBytes));
  });

  it("keeps the shards' transport settings and adds up the connections they negotiated", () => {
    const streams = (r: Report): number => r.transport?.protocols?.streams?.['http/1.1'] ?? 0;
    for (const s of shards) expect(streams(s.report)).toBeGreaterThan(0);
    expect(merged.transport).toMatchObject({ tls: false, http: '1.1', proxy: shards[0]!.report.transport!.proxy });
    expect(streams(merged)).toBe(sumOf(streams));
    expect(merged.transport!.protocols!.requests?.['http/1.1']).toBe(sumOf((r) => r.transport?.protocols?.requests?.['http/1.1'] ?? 0));
  });

  it('gives the percentiles of one histogram fed every shard value', () => {
    const names = Object.keys(merged.metrics.histograms);
    expect(names).toContain('chat.eventLatencyUs');
    for (const name of names) {
      const one = createHistogram();
      for (const s of shards) {
        const encoded = s.report.metrics.histograms[name];
        if (encoded !== undefined) one.add(decodeHistogram(encoded));
      }
      const mergedHistogram = decodeHistogram(merged.metrics.histograms[name]!);
      expect(mergedHistogram.totalCount, name).toBe(one.totalCount);
      for (const p of [0, 50, 90, 99, 99.9, 100]) {
        expect(mergedHistogram.getValueAtPercentile(p), `${name} p${p}`).toBe(one.getValueAtPercentile(p));
      }
    }
    const latency = createHistogram();
    for (const s of shards) latency.add(decodeHistogram(s.report.scenarios.chatStreams!.eventLatencyMs.hdr));
    // The max is the shards' largest exact max (report.json metrics.maxima), inside the top bucket.
    settleMax(latency, Math.round(Math.max(...shards.map((s) => s.report.scenarios.chatStreams!.eventLatencyMs.max)) * 1_000));
    const { hdr: _hdr, ...expected } = summarizeHistogram(latency);
    void _hdr;
    expect(merged.scenarios.chatStreams!.eventLatencyMs).toMatchObject(expected);
    expect(expected.count).toBe(sumOf((r) => r.scenarios.chatStreams!.eventLatencyMs.count));
  });

  it('aligns the time series by elapsed interval', () => {
    const bucket = (p: TimeseriesPoint): number => Math.floor(p.tSec - p.intervalSec / 2);
    const buckets = merged.timeseries.map(bucket);
    expect(buckets).toEqual([...new Set(buckets)].sort((a, b) => a - b));
    expect(merged.timeseries.length).toBeLessThanOrEqual(Math.max(...shards.map((s) => s.report.timeseries.length)));
    expect(merged.timeseries.length).toBeGreaterThanOrEqual(2);
    for (const point of merged.timeseries) {
      const same = shards.flatMap((s) => s.report.timeseries.filter((p) => bucket(p) === bucket(point)));
      expect(point.events).toBe(same.reduce((sum, p) => sum + p.events, 0));
      expect(point.streamsOpen).toBe(same.reduce((sum, p) => sum + p.streamsOpen, 0));
      expect(point.messagesSent).toBe(same.reduce((sum, p) => sum + p.messagesSent, 0));
    }
    const allEvents = (points: readonly TimeseriesPoint[]): number => points.reduce((sum, p) => sum + p.events, 0);
    expect(allEvents(merged.timeseries)).toBe(sumOf((r) => allEvents(r.timeseries)));
  });

  it('evaluates thresholds on the merged data and speaks for the whole run', () => {
    expect(merged.thresholds).toEqual([{ expression: 'chatStreams.opened > 0', status: 'pass', observed: merged.scenarios.chatStreams!.opened }]);
    expect(merged.shard).toBeNull();
    // The merged report speaks for every participant of the run again.
    expect(merged.scenarios.chatStreams!.participants).toBe(24);
    expect(merged.plan!.scenarios[0]!.stages.at(-1)!.to).toBe(24);
    expect(merged.mergedFrom).toEqual(shards.map((s) => s.path));
    expect(merged.startedAt).toBe(shards.map((s) => s.report.startedAt).sort()[0]);
    expect(merged.endedAt).toBe(
      shards
        .map((s) => s.report.endedAt)
        .sort()
        .at(-1),
    );
    expect(merged.durationMs).toBe(Math.max(...shards.map((s) => s.report.durationMs)));
    expect(merged.warnings).toEqual([]);
    expect(validateReport(merged)).toEqual({ valid: true, errors: [] });
  });

  it('passes when every shard passed', () => {
    const failed = shards.flatMap((s) => s.report.checks.filter((c) => c.status === 'fail'));
    expect(
      shards.map((s) => s.report.verdict),
      JSON.stringify(failed),
    ).toEqual(['pass', 'pass', 'pass', 'pass']);
    expect(merged.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(merged.verdict).toBe('pass');
  });

  it('merges a partial set (3 of 4) honestly: sums of what ran, a warning, verdict fail', () => {
    const some = [shards[0]!, shards[1]!, shards[3]!];
    const partial = mergeReports(
      some.map((s) => s.report),
      some.map((s) => s.path),
    );
    expect(partial.warnings[0]).toMatch(/^partial merge: 3 of 4 shards \(missing 2\/4\)/);
    expect(partial.scenarios.chatStreams!.opened).toBe(some.reduce((sum, s) => sum + s.report.scenarios.chatStreams!.opened, 0));
    // A missing shard's participants were never held: the load check says how much of the plan was.
    const failed = partial.checks.filter((c) => c.status === 'fail');
    expect(failed.map((c) => c.id)).toEqual(['load.achieved']);
    // Three shards of four hold at most three quarters of the plan.
    expect(failed[0]!.observed).toBeLessThan(76);
    expect(failed[0]!.detail).toMatch(/^held \d+(\.\d)? % of planned stream-seconds \(.*\); \d+ of 48 streams at the end/);
    expect(partial.verdict).toBe('fail');
  });
});
