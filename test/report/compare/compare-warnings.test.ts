/**
 * compare says when two reports are not like for like (profile, target, duration) on
 * stderr and in every compare output, and `--strict` refuses such a comparison with exit 2
 * and one line. The CLI runs in-process on report files written to a temp folder.
 */

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../../src/contract/report.js';
import { assertComparable, setupDifferences } from '../../../src/report/compare/compare-warnings.js';
import { ConfigError } from '../../../src/util/errors.js';
import { makeReport } from '../../support/make-report.js';
import { runCli } from '../../support/run-cli.js';

/** A report of `profile` configured for `durationMs`, run for as long, against `target`. */
function reportOf(profile: string, durationMs: number, target: Report['target'] = { url: 'http://127.0.0.1:40123', embedded: true }, seed = 1): Report {
  const report = makeReport({ seed });
  return { ...report, profile: { ...report.profile, name: profile, durationMs }, durationMs, target };
}

const SMOKE = reportOf('smoke', 30_000);

describe('setupDifferences', () => {
  it.each([
    ['the same setup (embedded targets on different ports)', reportOf('smoke', 30_000, { url: 'http://127.0.0.1:51999', embedded: true }, 2), []],
    [
      'a release report',
      reportOf('release', 600_000),
      ['different profiles: baseline "smoke", candidate "release"', 'different durations: baseline 30s, candidate 10m00s'],
    ],
    ['a --duration override', reportOf('smoke', 60_000), ['different durations: baseline 30s, candidate 1m00s']],
    [
      'an external target',
      reportOf('smoke', 30_000, { url: 'https://staging.example/api', embedded: false }),
      ['different targets: baseline the embedded reference target, candidate https://staging.example/api'],
    ],
    [
      'injected faults',
      reportOf('smoke', 30_000, { url: 'http://127.0.0.1:40123', embedded: true, faults: ['latency=20'] }),
      ['different targets: baseline the embedded reference target, candidate the embedded reference target with faults latency=20'],
    ],
    ['a run cut short (measured 12 s of 30 s)', { ...reportOf('smoke', 30_000), durationMs: 12_000 }, ['different durations: baseline 30s, candidate 12s']],
  ])('against %s', (_name, candidate, expected) => {
    const differences = setupDifferences(SMOKE, candidate as Report);
    expect(differences.map((difference) => difference.split(': counts')[0])).toEqual(expected);
  });

  it('tells two external targets apart by URL, not by a trailing slash', () => {
    const a = reportOf('smoke', 30_000, { url: 'https://a.example', embedded: false });
    expect(setupDifferences(a, reportOf('smoke', 30_000, { url: 'https://a.example/', embedded: false }))).toEqual([]);
    expect(setupDifferences(a, reportOf('smoke', 30_000, { url: 'https://b.example', embedded: false }))).toEqual([
      'different targets: baseline https://a.example, candidate https://b.example',
    ]);
  });

  it('assertComparable throws one ConfigError line listing every difference', () => {
    expect(() => assertComparable(SMOKE, reportOf('smoke', 30_000, undefined, 3))).not.toThrow();
    const release = reportOf('release', 600_000, { url: 'https://staging.example', embedded: false });
    expect(() => assertComparable(SMOKE, release)).toThrow(ConfigError);
    expect(() => assertComparable(SMOKE, release)).toThrow(
      /^--strict: the reports are not comparable: different profiles.*; different targets.*; different durations/,
    );
  });
});

describe('coachbench compare: a smoke report against a release report', () => {
  let dir: string;
  let smokePath: string;
  let releasePath: string;
  let stdout = '';
  let stderr = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'coachbench-compare-warnings-'));
    smokePath = join(dir, 'smoke.json');
    releasePath = join(dir, 'release.json');
    await writeFile(smokePath, JSON.stringify(SMOKE));
    await writeFile(releasePath, JSON.stringify(reportOf('release', 600_000, undefined, 2)));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs the CLI in-process, keeping what it printed for the assertions. */
  async function cli(...argv: string[]): Promise<number> {
    const result = await runCli(argv);
    ({ stdout, stderr } = result);
    return result.code;
  }

  it('compares, and warns on stderr, in the table, the Markdown and the HTML', async () => {
    const md = join(dir, 'compare.md');
    const html = join(dir, 'compare.html');
    expect(await cli('compare', smokePath, releasePath, '--markdown', md, '--html', html)).toBe(0);
    const stderrLines = stderr.trim().split('\n');
    expect(stderrLines).toEqual([
      'coachbench compare: warning: different profiles: baseline "smoke", candidate "release"',
      expect.stringMatching(/^coachbench compare: warning: different durations: baseline 30s, candidate 10m00s: counts/),
    ]);
    expect(stdout).toContain('warning: different profiles: baseline "smoke", candidate "release"');
    expect(await readFile(md, 'utf8')).toMatch(/### Comparability warnings[\s\S]*different profiles[\s\S]*different durations/);
    expect(await readFile(html, 'utf8')).toMatch(/Comparability warnings[\s\S]*different profiles: baseline &quot;smoke&quot;/);
  });

  it('--strict refuses the comparison: exit 2, one line, no table', async () => {
    expect(await cli('compare', smokePath, releasePath, '--strict')).toBe(2);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^coachbench: --strict: the reports are not comparable: different profiles: baseline "smoke", candidate "release"; different durations/,
    );
  });

  it('--strict compares two reports of the same setup as usual, with no warning', async () => {
    expect(await cli('compare', smokePath, smokePath, '--strict')).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain('No regressions');
  });
});
