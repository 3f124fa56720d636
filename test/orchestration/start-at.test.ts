/**
 * `run --start-at` (docs/design.md §2.2): two shard processes given one instant start their
 * load within 100 ms of each other, whenever each was launched; a late one refuses.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import { parseStartAt } from '../../src/orchestration/start-at.js';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { mergeReports } from '../../src/report/merge/merge-reports.js';
import { ConfigError } from '../../src/util/errors.js';
import { besidesClosingLines, once, runBin } from '../support/bin-helpers.js';
import { profileFile, quickProfile } from '../support/profiles.js';
import { readRunReport } from '../support/run-report.js';
import { startTargetWithFixtures } from '../support/target-helpers.js';

let dir: string;
let target: RunningTarget;
let profile: string;
let fixtures: string;

beforeAll(async () => {
  ({ dir, target, fixtures } = await startTargetWithFixtures({ prefix: 'coachbench-start-at-' }));
  profile = await profileFile(dir, 'profile', quickProfile({ duration: '2s', generator: { maxEventLoopDelayP99: '2s' } }));
});
afterAll(() => target.close());

const shard = (index: number, startAt: string, workers = '1') =>
  runBin([
    'run',
    '-p',
    profile,
    '-t',
    target.url,
    '-f',
    fixtures,
    '--shard',
    `${index}/2`,
    '--start-at',
    startAt,
    '-w',
    workers,
    '-q',
    '-o',
    join(dir, `${startAt}-${index}`),
  ]);

const reportOf = (startAt: string, index: number): Promise<Report> => readRunReport(join(dir, `${startAt}-${index}`));

describe('run --start-at', () => {
  it('starts two shards launched 1.5 s apart within 100 ms of each other, and the merge says so', async () => {
    const startAt = new Date(Date.now() + 4_000).toISOString();
    const first = shard(0, startAt);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // The second shard also splits its share over two driver processes, each waiting on its own.
    const results = await Promise.all([first, shard(1, startAt, '2')]);
    expect(results.map((r) => besidesClosingLines(r.stderr))).toEqual(['', '']);
    const reports = await Promise.all([reportOf(startAt, 0), reportOf(startAt, 1)]);
    for (const report of reports) {
      expect(report.start!.plannedAt).toBe(startAt);
      expect(report.startedAt).toBe(startAt);
      expect(Math.abs(report.start!.skewMs)).toBeLessThan(100);
    }
    const actual = reports.map((report) => Date.parse(report.start!.actualAt));
    expect(Math.abs(actual[0]! - actual[1]!)).toBeLessThan(100);
    const merged = mergeReports(reports, ['0', '1']);
    expect(merged.shardStarts).toEqual({
      plannedAt: startAt,
      spreadMs: Math.abs(actual[0]! - actual[1]!),
      shards: reports.map((report) => ({ index: report.shard!.index, actualAt: report.start!.actualAt, skewMs: report.start!.skewMs })),
    });
  }, 60_000);

  it('refuses a start time that has passed, with one line and exit 2, before any load', async () => {
    const result = await shard(0, new Date(Date.now() - 5_000).toISOString());
    expect(result.code).toBe(2);
    const late = /^coachbench: --start-at: \S+ passed (\d+\.\d) s ago, before this run was ready; it would run late beside the others/.exec(result.stderr);
    // At least the 5 s it was set in the past (more when the process starts slowly).
    expect(Number(late?.[1])).toBeGreaterThanOrEqual(5);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each([
    ['1', 'SIGTERM', 143],
    ['2', 'SIGINT', 130],
  ] as const)('a %s-worker shard stopped by %s at the barrier: nothing measured, one line, no report folder', async (workers, signal, code) => {
    const out = join(dir, `barrier-${signal}`);
    const result = await runBin(['run', '-p', profile, '-t', target.url, '-f', fixtures, '--shard', '0/2', '--start-at', '+30s', '-w', workers, '-o', out], {
      onStderr: once(
        (stderr) => stderr.includes('ready; load starts at'),
        (pid) => process.kill(pid, signal),
      ),
    });
    expect(result.code, result.stderr).toBe(code);
    expect(result.stderr).toContain(`coachbench: stopped by ${signal} before the load started; no report was written`);
    expect(result.stderr).not.toMatch(/stream\.open|FAIL/);
    // No report whose start comes after its end, and no folder left behind.
    expect(existsSync(out)).toBe(false);
  });

  it('reads COACHBENCH_START_AT when the flag is absent', async () => {
    const result = await runBin(['run', '-p', profile, '-q', '-o', join(dir, 'env')], { env: { COACHBENCH_START_AT: 'soon' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('COACHBENCH_START_AT: "soon" is not an RFC 3339 time with a zone');
  });
});

describe('parseStartAt', () => {
  const now = Date.parse('2026-11-24T12:00:00Z');
  it.each([
    ['2026-11-24T12:00:30Z', now + 30_000],
    ['2026-11-24T13:00:30+01:00', now + 30_000],
    ['2026-11-24T12:00:00.250Z', now + 250],
    ['+30s', now + 30_000],
    ['+1m30s', now + 90_000],
  ])('%s', (text, expected) => {
    expect(parseStartAt(text, now)).toBe(expected);
  });

  it.each([
    ['2026-11-24T12:00:30', 'is not an RFC 3339 time with a zone'],
    ['2026-11-24', 'is not an RFC 3339 time with a zone'],
    ['+30', 'has no unit'],
    ['2026-11-26T12:00:00Z', 'is more than 24h away'],
  ])('refuses %s', (text, message) => {
    expect(() => parseStartAt(text, now)).toThrow(ConfigError);
    expect(() => parseStartAt(text, now)).toThrow(message);
  });
});
