/**
 * A nightly history made for real, through bin/coachbench.js (built dist/): `coachbench
 * serve` started by the test, six short runs against it, then the same target restarted
 * with `--fault latency=20ms` and four more runs, each with `--label release=...` and a
 * GIT_SHA. `trend --fail-on-regression` over the ten finds the change at the seventh run
 * and exits 1; over the first six it exits 0. Every run is a few seconds of a handful of
 * participants against 127.0.0.1.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import type { Trend } from '../../src/report/trend/trend-model.js';
import { runBin } from '../support/bin-helpers.js';
import { profileFile } from '../support/profiles.js';
import { type ServeProcess, startServe } from '../support/serve-process.js';

const THRESHOLD = 'tagLink.latencyMs.p50 < 2000';
const PROFILE = {
  name: 'trend-e2e',
  duration: '2500ms',
  keepAliveTolerance: '40%',
  chatStreams: { participants: 6, rampPerSec: 100, switchEvery: '1500ms', messageRatePerSec: 10, churnRatePerSec: 2 },
  tagLink: { enabled: true, model: 'open', ratePerSec: 40, maxInFlight: 16 },
  generator: { maxEventLoopDelayP99: '200ms' },
  thresholds: [THRESHOLD],
};

let dir = '';
let server: ServeProcess | null = null;

/** Starts `coachbench serve` on a free port with `faults`; resolves with its URL once it listens. */
async function serve(fixtures: string, faults: string[]): Promise<string> {
  server = await startServe(fixtures, ['--keepalive', '500ms', '--participants', '12', ...faults.flatMap((f) => ['--fault', f])]);
  return server.url;
}

async function night(n: number, url: string, fixtures: string, profile: string): Promise<string> {
  const out = join(dir, 'nightly', `night-${String(n).padStart(2, '0')}`);
  const args = ['run', '--profile', profile, '--target', url, '--fixtures', fixtures, '--expect-keepalive', '500ms', '--out', out, '--quiet'];
  const result = await runBin([...args, '--label', `release=v1.${n}`], { env: { GIT_SHA: `sha${n}`.padEnd(40, '0') }, deadlineMs: 30_000 });
  expect(result.killed, result.stderr).toBe(false);
  expect([0, 1], result.stderr).toContain(result.code);
  return join(out, 'report.json');
}

const files: string[] = [];

describe('coachbench trend over real nightly runs (e2e)', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'coachbench-trend-e2e-'));
    const profile = await profileFile(dir, 'profile', PROFILE);
    const fixtures = join(dir, 'fixtures.json');
    const plain = await serve(fixtures, []);
    for (let n = 1; n <= 6; n += 1) files.push(await night(n, plain, fixtures, profile));
    await server?.stop();
    const slow = await serve(fixtures, ['latency=20ms']);
    for (let n = 7; n <= 10; n += 1) files.push(await night(n, slow, fixtures, profile));
    await server?.stop();
  }, 150_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('records --label and the git sha in each report.json', async () => {
    const report = JSON.parse(await readFile(files[6]!, 'utf8')) as Report;
    expect(report.labels).toEqual({ release: 'v1.7', gitSha: 'sha7'.padEnd(40, '0') });
    expect(report.profile.name).toBe('trend-e2e');
  });

  it('the first six nights alone: no regression, exit 0', async () => {
    const out = join(dir, 'trend-six');
    const result = await runBin(['trend', ...files.slice(0, 6), '--fail-on-regression', '--out', out], { deadlineMs: 30_000 });
    expect(result.stderr).toBe('');
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(/^trend: 6 runs of trend-e2e, .*no regression in the newest run among 1 thresholded metric/);
    const trend = JSON.parse(await readFile(join(out, 'trend.json'), 'utf8')) as Trend;
    expect(trend.regressions).toEqual([]);
  });

  it('all ten (the folder, with a broken file in it): the change at the seventh night, exit 1 naming metric, run and size', async () => {
    await mkdir(join(dir, 'nightly', 'broken'), { recursive: true });
    await writeFile(join(dir, 'nightly', 'broken', 'report.json'), '{"schemaVersion": ');
    const out = join(dir, 'trend-ten');
    const result = await runBin(['trend', join(dir, 'nightly'), '--fail-on-regression', '--out', out], { deadlineMs: 30_000 });
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toMatch(/skipped \S*broken\/report\.json: at 1:19: not valid JSON/);
    expect(result.stdout).toMatch(
      /^REGRESSION: tagLink\.latencyMs\.p50 regressed since run 7 \(trend-e2e-\S+ · release v1\.7 · gitSha sha700000000\): .*ms → .*ms, \+\d/m,
    );
    const trend = JSON.parse(await readFile(join(out, 'trend.json'), 'utf8')) as Trend;
    expect(trend.runs).toHaveLength(10);
    const [change] = trend.regressions;
    expect(change).toMatchObject({ metric: 'tagLink.latencyMs.p50', run: 7, kind: 'regression', provisional: false, labels: { release: 'v1.7' } });
    // The fault adds 20 ms to every answer: the shift's interval sits around it.
    expect(change!.shift).toBeGreaterThan(12);
    expect(change!.interval.lo).toBeGreaterThan(5);
    expect(change!.interval.hi).toBeLessThan(40);
    const html = await readFile(join(out, 'trend.html'), 'utf8');
    expect(html).toContain('data-chart="trend-tagLink.latencyMs.p50"');
    expect(html).toContain('href="../nightly/night-07/report.html"');
    expect(await readFile(join(out, 'trend.md'), 'utf8')).toMatch(/## ❌ coachbench trend: REGRESSION/);
  });
});
