/**
 * A check that failed in any shard fails the merged report: count-based checks through
 * re-derivation (their failure counts add up), and generator.healthy, a p99 bound that
 * re-derivation alone would let a healthy majority hide, through the explicit combination.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../../src/contract/profile/profile.js';
import type { Report } from '../../../src/contract/report.js';
import { createHistogram, decodeHistogram } from '../../../src/metrics/histogram.js';
import { MetricSet } from '../../../src/metrics/metric-set.js';
import { GENERATOR } from '../../../src/metrics/names.js';
import { buildReport } from '../../../src/report/build-report.js';
import { mergeReports } from '../../../src/report/merge/merge-reports.js';
import { renderJunit } from '../../../src/report/render-junit.js';
import { renderMarkdown } from '../../../src/report/render-markdown.js';
import { type ShardBench, type ShardRun, shardBench } from '../../support/shard-runs.js';

let bench: ShardBench;
let healthy: ShardRun[];
let faulty: ShardRun;
let healthyUrl: string;

beforeAll(async () => {
  bench = await shardBench();
  const good = await bench.target();
  // Seeded alike, so the same fixtures drive it; it sends a share of its events twice.
  const bad = await bench.target(['duplicate=40']);
  healthyUrl = good.url;
  [faulty, ...healthy] = (await Promise.all([bench.shard(bad.url, 0, 4, 'faulty'), ...[0, 1, 2, 3].map((i) => bench.shard(good.url, i, 4))])) as [
    ShardRun,
    ...ShardRun[],
  ];
});
afterAll(() => bench.close());

const statusOf = (report: Report, id: string): string | undefined => report.checks.find((c) => c.id === id)?.status;
const merge = (runs: readonly ShardRun[]): Report =>
  mergeReports(
    runs.map((r) => r.report),
    runs.map((r) => r.path),
  );

describe('merged verdict', () => {
  it('fails a count-based check that failed in one shard, with its evidence summed', () => {
    expect(statusOf(faulty.report, 'stream.message.delivery')).toBe('fail');
    expect(statusOf(merge(healthy), 'stream.message.delivery')).toBe('pass');

    const mixed = merge([faulty, ...healthy.slice(1)]);
    const delivery = mixed.checks.find((c) => c.id === 'stream.message.delivery')!;
    expect(delivery.status).toBe('fail');
    // Re-derived from the summed counters, not copied from the shard.
    expect(delivery.detail).not.toMatch(/failed in shard/);
    expect(mixed.scenarios.chatStreams!.duplicates).toBe([faulty, ...healthy.slice(1)].reduce((sum, r) => sum + r.report.scenarios.chatStreams!.duplicates, 0));
    expect(mixed.scenarios.chatStreams!.duplicates).toBeGreaterThan(0);
    expect(mixed.verdict).toBe('fail');
    // Shard 0 drove another URL: merged as one service, with a warning naming both.
    expect(mixed.warnings.join('\n')).toMatch(/different target URLs/);
    expect(mixed.target.url).toContain(healthyUrl);
  });

  it('fails generator.healthy when one shard was saturated, though the merged p99 is within bound', () => {
    const [first, ...rest] = healthy as [ShardRun, ...ShardRun[]];
    const boundUs = first.report.generator.maxEventLoopDelayP99Ms * 1_000;
    const stallUs = boundUs + 50_000;
    const loop = (r: Report) => decodeHistogram(r.metrics.histograms[GENERATOR.loopDelayUs]!);
    // The fewest stalls that saturate shard 0 while the merged p99 stays within bound.
    let stalls = 0;
    for (let k = 1; k < 1_000 && stalls === 0; k += 1) {
      const mine = loop(first.report);
      mine.recordValueWithCount(stallUs, k);
      const all = createHistogram();
      all.add(mine);
      for (const r of rest) all.add(loop(r.report));
      if (mine.getValueAtPercentile(99) > boundUs && all.getValueAtPercentile(99) <= boundUs) stalls = k;
    }
    expect(stalls).toBeGreaterThan(0);

    const metrics = MetricSet.decode(first.report.metrics);
    metrics.histogram(GENERATOR.loopDelayUs).recordValueWithCount(stallUs, stalls);
    const saturated = rebuild(first.report, metrics);
    expect(statusOf(saturated, 'generator.healthy')).toBe('fail');

    const merged = mergeReports([saturated, ...rest.map((r) => r.report)], ['saturated.json', ...rest.map((r) => r.path)]);
    expect(merged.generator.eventLoopDelayMs.p99).toBeLessThanOrEqual(first.report.generator.maxEventLoopDelayP99Ms);
    const check = merged.checks.find((c) => c.id === 'generator.healthy')!;
    expect(check.status).toBe('fail');
    expect(check.detail).toMatch(/^failed in shard 0\/4 \(saturated\.json\): event-loop delay p99/);
    expect(merged.generator.saturated).toBe(true);
    expect(merged.verdict).toBe('fail');
  });
});

describe('merged verdict of an interrupted shard', () => {
  it('is fail, in report.json, junit.xml and summary.md alike', () => {
    const [first, ...rest] = healthy as [ShardRun, ...ShardRun[]];
    expect(merge(healthy).verdict).toBe('pass');
    const interrupted = { ...first.report, interrupted: true };
    const merged = mergeReports([interrupted, ...rest.map((r) => r.report)], ['stopped.json', ...rest.map((r) => r.path)]);
    expect(merged.interrupted).toBe(true);
    expect(merged.verdict).toBe('fail');
    expect(merged.warnings.join('\n')).toMatch(/\[shard 0\/4\] was interrupted: .*merged verdict is fail/);
    const junit = renderJunit(merged);
    expect(junit).toMatch(/<testsuites [^>]*failures="1"/);
    expect(junit).toMatch(/<testcase name="verdict" classname="coachbench.run"[^>]*>\s*<failure type="run" message="\[shard 0\/4\] was interrupted/);
    expect(renderMarkdown(merged)).not.toMatch(/PASS/);
  });
});

describe('merged histogram max', () => {
  it("is the largest of the shards' exact maxima, not the top bucket's edge", () => {
    // Values whose bucket edges lie above them: 1,087,679 µs sits in a 512 µs bucket.
    const values = [1_087_679, 1_000_003, 2_345];
    const shards = values.map((value, i) => {
      const metrics = MetricSet.decode(healthy[i]!.report.metrics);
      metrics.histogram(GENERATOR.loopDelayUs).recordValue(value);
      return rebuild(healthy[i]!.report, metrics);
    });
    expect(shards[0]!.generator.eventLoopDelayMs.max).toBe(1_087.679);
    const merged = mergeReports(shards, ['a.json', 'b.json', 'c.json']);
    expect(merged.generator.eventLoopDelayMs.max).toBe(1_087.679);
    // Without the exact maxima (a report before 1.6.0) the edge is all there is.
    const old = shards.map((r) => ({ ...r, metrics: { ...r.metrics, maxima: undefined } }));
    expect(mergeReports(old, ['a.json', 'b.json', 'c.json']).generator.eventLoopDelayMs.max).toBeGreaterThan(1_087.679);
  });
});

/** The shard's report as its own run would have built it from `metrics`. */
function rebuild(report: Report, metrics: MetricSet): Report {
  const chat = report.scenarios.chatStreams!;
  return buildReport(metrics, {
    runId: report.runId,
    startedAt: new Date(report.startedAt),
    endedAt: new Date(report.endedAt),
    durationMs: report.durationMs,
    interrupted: report.interrupted,
    target: report.target,
    profile: report.profile as unknown as Profile,
    keepAlive: { intervalMs: chat.expectedKeepAliveMs, toleranceMs: chat.keepAliveToleranceMs },
    shard: report.shard,
    processes: report.generator.processes,
    rssBytes: report.generator.rssBytes,
    timeseries: report.timeseries,
    warnings: report.warnings,
    thresholds: report.thresholds.map((t) => t.expression),
  });
}
