/**
 * `coachbench trend` in-process: exit 1 only with --fail-on-regression and a regression in
 * a thresholded metric, its line naming metric, run and size; the three files written;
 * bad flags and inputs are one line and exit 2.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { night, nights, writeNights } from '../support/report-history.js';
import { runCli } from '../support/run-cli.js';

let dir = '';
let history = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-trend-cli-'));
  history = join(dir, 'nightly');
  await writeNights(history, [...nights(9, 8), night(30, { profile: 'smoke' })]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('coachbench trend', () => {
  it('writes trend.html, trend.md and trend.json; exits 1 with --fail-on-regression, naming metric, run and size', async () => {
    const out = join(dir, 'out');
    const result = await runCli(['trend', history, '--fail-on-regression', '--profile', 'nightly', '--out', out]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^REGRESSION: tagLink\.latencyMs\.p99 regressed since run 8 \(nightly-008 · release v1\.8 · gitSha 0008abcdef01\)(, the newest 2 runs so far)?: [\d.]+ ms → [\d.]+ ms, \+[\d.]+ ms \(\+\d+/m,
    );
    expect(result.stdout).toMatch(/skipped \S+nightly-030\/report\.json: profile "smoke", not "nightly"/);
    const trend = JSON.parse(await readFile(join(out, 'trend.json'), 'utf8')) as { schemaVersion: string; runs: unknown[] };
    expect(trend.schemaVersion).toBe('1.0.0');
    expect(trend.runs).toHaveLength(9);
    const html = await readFile(join(out, 'trend.html'), 'utf8');
    const markdown = await readFile(join(out, 'trend.md'), 'utf8');
    expect(markdown).toContain('tagLink.latencyMs.p99 regressed since run 8');
    // The change-point table: the same row in both, its run linked to its report in trend.html.
    const run8 = 'run 8 (nightly-008 · release v1.8 · gitSha 0008abcdef01)';
    expect(html).toContain(`<tr class="regression"><td>tagLink.latencyMs.p99</td><td><a href="../nightly/nightly-008/report.json">${run8}</a></td>`);
    expect(markdown).toMatch(
      /^\| tagLink\.latencyMs\.p99 \| run 8 \\\(nightly-008 · release v1\.8 · gitSha 0008abcdef01\\\) \| [\d.]+ ms → [\d.]+ ms \| .+ \| regression( \\\(newest runs only, so far\\\))? \|$/m,
    );
  });

  it('without --fail-on-regression the same history exits 0; --quiet keeps the verdict, the regression and where the files went', async () => {
    const out = join(dir, 'out2');
    const result = await runCli(['trend', history, '--profile', 'nightly', '--out', out, '--quiet']);
    expect(result.code).toBe(0);
    // The skipped report and the change points only inform: --quiet drops them (docs/design.md §2.2).
    expect(result.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^trend: 9 runs of nightly, \d+ change points? in \d+ metrics; the newest run is in a regression of 1 thresholded metric$/),
      expect.stringMatching(/^REGRESSION: tagLink\.latencyMs\.p99/),
      `trend: ${out}/trend.html, trend.md, trend.json`,
    ]);
  });

  it('--quiet with no regression still says the verdict and where the files went', async () => {
    const steady = join(dir, 'steady');
    await writeNights(steady, nights(6));
    const out = join(dir, 'out-steady');
    const result = await runCli(['trend', steady, '--out', out, '--quiet']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(
      /^trend: 6 runs of nightly, 0 change points in \d+ metrics; no regression in the newest run among \d+ thresholded metrics?\n/,
    );
    expect(result.stdout.endsWith(`\ntrend: ${out}/trend.html, trend.md, trend.json\n`)).toBe(true);
    expect(result.stdout.trim().split('\n')).toHaveLength(2);
  });

  it.each([
    [['trend', join('no', 'such', 'dir')], `coachbench: no such file, folder or match: ${join('no', 'such', 'dir')}\n`],
    [['trend', '@history', '--significance', '0'], 'coachbench: --significance: 0 must be above 0 and at most 50% (e.g. 1% or 0.05)\n'],
    [
      ['trend', '@history', '--significance', '0.1%'],
      'coachbench: --significance 0.1% cannot be reached with --permutations 199: use at least 999 permutations\n',
    ],
    [['trend', '@history', '--permutations', '5'], 'coachbench: --permutations: 5 must be a whole number in 19..9999\n'],
    [['trend', '@history', '--floor', 'ms'], /^coachbench: --floor: "ms" must be UNIT=NUMBER/],
    [
      ['trend', '@history', '--profile', 'release'],
      /^coachbench: no usable report of profile release among the inputs \(\S+: profile "nightly", not "release"/,
    ],
  ])('%j is one line and exit 2', async (argv, message) => {
    const result = await runCli(argv.map((arg) => (arg === '@history' ? history : arg)).concat(['--out', join(dir, 'refused')]));
    expect(result.code).toBe(2);
    if (typeof message === 'string') expect(result.stderr).toBe(message);
    else expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
