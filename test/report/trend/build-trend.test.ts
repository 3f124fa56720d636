/**
 * buildTrend over whole reports (real HDR histograms): the change is found at the night the
 * target's latency rose, named with that night's labels; the newest run's threshold decides
 * what is a regression; reports that do not belong are skipped with their reason; trend.json
 * follows its schema.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { buildTrend } from '../../../src/report/trend/build-trend.js';
import type { Trend } from '../../../src/report/trend/trend-model.js';
import { ConfigError } from '../../../src/util/errors.js';
import { entries, night, nights, THRESHOLD } from '../../support/report-history.js';
import { SETTINGS } from '../../support/synthetic-history.js';

const schema = JSON.parse(readFileSync(new URL('../../../schemas/trend.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv2020({ allErrors: true, allowUnionTypes: true }).compile(schema);
const at = new Date('2026-12-01T00:00:00Z');

function expectValid(trend: Trend): void {
  const ok = validate(JSON.parse(JSON.stringify(trend)));
  expect(validate.errors ?? [], 'trend.json against schemas/trend.schema.json').toEqual([]);
  expect(ok).toBe(true);
}

const series = (trend: Trend, metric: string) => trend.series.find((one) => one.metric === metric)!;

describe('buildTrend', () => {
  it('finds the night latency rose by 20 ms (run 9 of 12), as a regression of the thresholded metric, with that night’s labels', () => {
    const trend = buildTrend(entries(nights(12, 9)), [], { settings: SETTINGS, generatedAt: at });
    expectValid(trend);
    expect(trend.runs.map((run) => run.runId)).toEqual(nights(12).map((r) => r.runId));
    const tags = series(trend, 'tagLink.latencyMs.p99');
    expect(tags.threshold).toEqual({ expression: THRESHOLD, limit: 500 });
    expect(tags.changePoints).toHaveLength(1);
    const change = tags.changePoints[0]!;
    expect(change).toMatchObject({ run: 9, kind: 'regression', provisional: false, runId: 'nightly-009', labels: { release: 'v1.9' } });
    expect(change.interval.lo).toBeGreaterThan(10);
    expect(change.interval.hi).toBeGreaterThan(18);
    expect(change.evidence.join(' ')).toMatch(/pooled samples .* differ/);
    expect(trend.regressions.map((c) => [c.metric, c.run])).toEqual([['tagLink.latencyMs.p99', 9]]);
    // The same shift shows in every target latency; only the thresholded one is a regression verdict.
    expect(series(trend, 'photoUpload.latencyMs.p50').changePoints.map((c) => [c.run, c.kind])).toEqual([[9, 'regression']]);
    expect(series(trend, 'chatStreams.eventLatencyMs.p99').changePoints.map((c) => c.run)).toEqual([9]);
    // Generator health and throughput did not move.
    expect(series(trend, 'generator.eventLoopDelayMs.p99').changePoints).toEqual([]);
    expect(series(trend, 'tagLink.throughputPerSec').changePoints).toEqual([]);
  });

  it('calls the first shifted night a provisional regression, and a flat history none', () => {
    const first = buildTrend(entries(nights(9, 9)), [], { settings: SETTINGS, generatedAt: at });
    expect(first.regressions.map((c) => [c.metric, c.run, c.provisional])).toEqual([['tagLink.latencyMs.p99', 9, true]]);
    const flat = buildTrend(entries(nights(8)), [], { settings: SETTINGS, generatedAt: at });
    expectValid(flat);
    expect(flat.regressions).toEqual([]);
    expect(flat.series.flatMap((one) => one.changePoints.map((c) => `${one.metric} @${c.run}`))).toEqual([]);
  });

  it('an improvement after a regression is no longer a regression of the newest run', () => {
    const reports = nights(16).map((report, i) => (i + 1 >= 6 && i + 1 < 11 ? night(i + 1, { shiftMs: 20 }) : report));
    const trend = buildTrend(entries(reports), [], { settings: SETTINGS, generatedAt: at });
    expect(series(trend, 'tagLink.latencyMs.p99').changePoints.map((c) => [c.run, c.kind])).toEqual([
      [6, 'regression'],
      [11, 'improvement'],
    ]);
    expect(trend.regressions).toEqual([]);
  });

  it('skips, with the reason, reports of another profile, shards, interrupted runs, runs short of their load and a run given twice; notes a metric missing from a run', () => {
    const reports = nights(8);
    const other = night(20, { profile: 'smoke' });
    const shard = { ...night(21), shard: { index: 1, count: 4 } };
    const interrupted = { ...night(22), interrupted: true };
    const short = night(24);
    short.checks = [
      ...short.checks.filter((check) => check.id !== 'load.achieved'),
      { id: 'load.achieved', status: 'fail', observed: 60, detail: 'photoUpload started 60 % of 100 planned arrivals' },
    ];
    const noPhotos = night(23);
    noPhotos.scenarios.photoUpload = null;
    const list = [...entries([...reports, other, shard, interrupted, noPhotos, short]), { file: '/elsewhere/copy.json', report: reports[2]! }];
    const trend = buildTrend(list, [{ file: '/x/report.json', reason: 'not JSON' }], { settings: SETTINGS, generatedAt: at, profile: 'nightly' });
    expectValid(trend);
    const reasons = Object.fromEntries(trend.skipped.map((skip) => [skip.file, skip.reason]));
    expect(reasons).toEqual({
      '/x/report.json': 'not JSON',
      '/history/nightly-020/report.json': 'profile "smoke", not "nightly"',
      '/history/nightly-021/report.json': 'a shard report (shard 1/4): merge the shards of its run first (coachbench merge)',
      '/history/nightly-022/report.json': 'the run was interrupted: its figures cover only part of it',
      '/history/nightly-024/report.json':
        'the run did not drive its planned load (load.achieved: photoUpload started 60 % of 100 planned arrivals): its figures describe a lighter one',
      '/elsewhere/copy.json': 'the same run (nightly-003) as /history/nightly-003/report.json',
    });
    expect(trend.runs).toHaveLength(9);
    expect(series(trend, 'photoUpload.latencyMs.p99').missing).toEqual([9]);
    expect(trend.notes).toContain(
      'photoUpload.latencyMs.p99: missing from 1 run: run 9 /history/nightly-023/report.json (photoUpload did not run); its series skips them',
    );
  });

  it('follows the newest profile by default and refuses (exit 2) when nothing usable is left', () => {
    const trend = buildTrend(entries([...nights(3), night(9, { profile: 'release' })]), [], { settings: SETTINGS, generatedAt: at });
    expect(trend.profile).toBe('release');
    expect(trend.skipped).toHaveLength(3);
    const attempt = () => buildTrend([], [{ file: '/a/report.json', reason: 'ENOENT, no such file or directory' }], { settings: SETTINGS, generatedAt: at });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow('no usable report of profile (any) among the inputs (/a/report.json: ENOENT, no such file or directory)');
  });
});
