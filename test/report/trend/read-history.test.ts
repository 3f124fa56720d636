/**
 * Reading a history from disk: folders, globs and files; unusable files skipped with their
 * reason (not JSON, another schema major, a broken HDR payload); hundreds of reports read
 * slimmed, in bounded memory and a few seconds.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTrend, MAX_TREND_RUNS } from '../../../src/report/trend/build-trend.js';
import { expandInputs, readHistory } from '../../../src/report/trend/read-history.js';
import { ConfigError } from '../../../src/util/errors.js';
import { entries, night, nights, writeNights } from '../../support/report-history.js';
import { SETTINGS } from '../../support/synthetic-history.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-trend-read-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('readHistory', () => {
  it('finds report.json files in folders and globs, once each, and skips unusable ones with the reason', async () => {
    const root = join(dir, 'mixed');
    const files = await writeNights(join(root, 'nightly'), nights(3));
    await mkdir(join(root, 'bad', 'json'), { recursive: true });
    await writeFile(join(root, 'bad', 'json', 'report.json'), 'not json');
    const future = { ...night(4), schemaVersion: '2.0.0' };
    const hdr = night(5);
    hdr.scenarios.tagLink!.latencyMs.hdr = 'AAAA';
    await writeNights(join(root, 'bad'), [future, hdr]);
    const found = await expandInputs([root, join(root, 'nightly', '*', 'report.json'), files[0]!]);
    expect(found).toHaveLength(6);
    const history = await readHistory(found);
    expect(history.entries.map((entry) => entry.report.runId).sort()).toEqual(['nightly-001', 'nightly-002', 'nightly-003']);
    const reasons = Object.fromEntries(history.skipped.map((skip) => [skip.file.slice(root.length), skip.reason]));
    expect(reasons['/bad/json/report.json']).toMatch(/^at 1:1: not valid JSON/);
    expect(reasons['/bad/nightly-004/report.json']).toBe('not a valid coachbench report: schemaVersion 2.0.0 is not supported (this coachbench reads 1.x)');
    expect(reasons['/bad/nightly-005/report.json']).toMatch(/^\/scenarios\/tagLink\/latencyMs\/hdr is not a valid HDR histogram/);
    // Slimmed: what a trend never reads is not kept.
    const [entry] = history.entries;
    expect(entry!.report.timeseries).toEqual([]);
    expect(entry!.report.metrics.histograms).toEqual({});
    expect(entry!.report.scenarios.tagLink!.latencyMs.hdr.length).toBeGreaterThan(100);
  });

  it('refuses (exit 2) inputs that name nothing, all of them in one line', async () => {
    const attempt = expandInputs([join(dir, 'nope'), join(dir, 'none-*.json'), dir]);
    await expect(attempt).rejects.toThrow(ConfigError);
    await expect(expandInputs([join(dir, 'nope'), join(dir, 'none-*.json')])).rejects.toThrow(
      `no such file, folder or match: ${join(dir, 'nope')}, ${join(dir, 'none-*.json')}`,
    );
  });

  it('reads 300 reports and builds their trend in bounded memory and a few seconds', async () => {
    const root = join(dir, 'many');
    const reports = nights(300, 250);
    await writeNights(root, reports);
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const history = await readHistory(await expandInputs([root]));
    const heapAfter = process.memoryUsage().heapUsed;
    const trend = buildTrend(history.entries, history.skipped, { settings: SETTINGS, generatedAt: new Date() });
    const elapsed = performance.now() - started;
    console.log(`300 reports: read in ${Math.round(elapsed)} ms (with the trend), heap +${Math.round((heapAfter - heapBefore) / 1_048_576)} MiB`);
    expect(history.entries).toHaveLength(300);
    expect(trend.regressions.map((change) => change.run)).toEqual([250]);
    // Each kept report is a few kilobytes of HDR payloads, not the whole file.
    const kept = Buffer.byteLength(JSON.stringify(history.entries));
    expect(kept / 300).toBeLessThan(16_000);
    expect(elapsed).toBeLessThan(15_000);
  }, 60_000);

  it('follows the newest runs only, noting how many older ones it left out', async () => {
    const root = join(dir, 'long');
    await writeNights(root, nights(30, 25));
    const history = await readHistory(await expandInputs([root]));
    const trend = buildTrend(history.entries, history.skipped, { settings: SETTINGS, generatedAt: new Date(), maxRuns: 20 });
    expect(trend.runs.map((run) => run.runId)).toEqual(Array.from({ length: 20 }, (_, i) => `nightly-${String(i + 11).padStart(3, '0')}`));
    expect(trend.runs[0]!.index).toBe(1);
    // Night 25 is the 15th run followed.
    expect(trend.regressions.map((change) => change.run)).toEqual([15]);
    expect(trend.notes).toContain(`10 older runs of nightly left out: a trend follows the newest 20, from ${trend.runs[0]!.startedAt} on`);
    expect(trend.skipped).toEqual([]);
  }, 60_000);

  it(`follows at most MAX_TREND_RUNS runs by default`, () => {
    const many = nights(MAX_TREND_RUNS + 1);
    const trend = buildTrend(entries(many), [], { settings: SETTINGS, generatedAt: new Date() });
    expect(trend.runs).toHaveLength(MAX_TREND_RUNS);
    expect(trend.runs[0]!.runId).toBe('nightly-002');
    expect(trend.notes.filter((note) => note.includes('left out'))).toHaveLength(1);
  }, 60_000);
});
