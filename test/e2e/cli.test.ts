/**
 * End to end through bin/coachbench.js (built dist/): every exit code of docs/design.md
 * §2.9 that bin/ can produce, one-line errors, help and completion, reports on disk, SIGINT
 * handling, and a run against an external --target.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import { startTarget } from '../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { once, runBin } from '../support/bin-helpers.js';
import { makeReport } from '../support/make-report.js';
import { profileFile, quickProfile, TIMING_SLACK } from '../support/profiles.js';
import { failures } from '../support/run-helpers.js';
import { readRunReport } from '../support/run-report.js';

let dir: string;
let profilePath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-e2e-'));
  // These runs are about the command line (progress, reports, exit codes, a target's key), not
  // timing: with the tight cadence and loop bounds a loaded CI machine failed them by itself.
  profilePath = await profileFile(dir, 'quick', quickProfile({ duration: '2s', ...TIMING_SLACK }));
});

describe('coachbench run (e2e)', () => {
  it('runs a profile against the embedded target, prints progress, writes the report, exits 0', async () => {
    const out = join(dir, 'ok');
    const result = await runBin(['run', '--profile', profilePath, '--out', out]);
    expect(result.stderr).toMatch(/streams \d+\/48 \(plan \d+\)/);
    expect(result.stderr).toMatch(/PASS/);
    expect(result.code).toBe(0);
    // The first line writes the duration as the progress line does (`2s`, `3.5s`, `1h00m`).
    expect(result.stderr).toContain(`24 participants, 2s → ${out}\n`);
    expect(result.stderr).toMatch(/^\[[\d.]+s\/2s\] /m);
    const report = await readRunReport(out);
    expect(report.verdict).toBe('pass');
    expect(report.target.embedded).toBe(true);
    expect(report.scenarios.chatStreams!.opened).toBeGreaterThan(0);
    // A healthy run held the streams it planned (docs/design.md §5.4).
    const load = report.checks.find((check) => check.id === 'load.achieved')!;
    expect(load.status, load.detail).toBe('pass');
    expect(load.detail).toMatch(/^held \d+(\.\d)? % of planned stream-seconds \(.*\); \d+ of 48 streams at the end$/);
    expect(report.coreChecks).toContain('load.achieved');
  });

  it('exits 1 with the report written when a threshold fails; --quiet silences the progress, not the closing lines', async () => {
    const out = join(dir, 'threshold');
    const result = await runBin([
      'run',
      '--profile',
      profilePath,
      '--out',
      out,
      '--quiet',
      '--progress-every',
      '1s',
      '--threshold',
      'chatStreams.eventLatencyMs.p99 < 0.001',
    ]);
    expect(result.code).toBe(1);
    const report = await readRunReport(out);
    expect(report.thresholds).toEqual([expect.objectContaining({ expression: 'chatStreams.eventLatencyMs.p99 < 0.001', status: 'fail' })]);
    // The verdict, what failed and where the report is: the one record a CI log keeps (docs/design.md §2.2).
    expect(result.stderr).toMatch(/^FAIL: .*\n {2}✗ chatStreams\.eventLatencyMs\.p99 < 0\.001 \(observed [\d.]+\)\n/m);
    expect(result.stderr).toContain(`report: ${join(out, 'report.json')}`);
    expect(result.stderr).not.toMatch(/^\[\d+s\/2s\]/m);
  });

  it.each([
    [['run', '--profile', 'no-such-profile'], /no such file or built-in profile/],
    [['run', '--duration', 'soon'], /--duration: "soon" is not a duration/],
    [['run', '--duration', '30'], /^coachbench: --duration: "30" has no unit \(units ms, s, m, h, d;/],
    [['run', '--duration', '999999999h'], /^coachbench: --duration: "999999999h" is longer than the maximum, 7d$/m],
    [['run', '--workers', 'abc'], /--workers: "abc" must be a whole number in 1\.\.64 or auto/],
    [
      ['run', '--threshold', 'chatStreams.eventLatencyMs.p99 <'],
      /^coachbench: --threshold: threshold "chatStreams\.eventLatencyMs\.p99 <": .* at position 33$/m,
    ],
    // docs/reports.md's example, as the smoke profile (which has thresholds of its own) says it.
    [
      ['run', '--threshold', 'chatStreams.eventLatncyMs.p99 < 250'],
      /^coachbench: --threshold: threshold "chatStreams\.eventLatncyMs\.p99 < 250": unknown metric "eventLatncyMs" in chatStreams \(did you mean eventLatencyMs\?\) at position 13$/m,
    ],
    [['run', '--target', 'http://127.0.0.1:9'], /--target needs --fixtures/],
    [['run', '--frobnicate'], /Unknown argument: frobnicate \(see coachbench run --help\)/],
    [['serve', '--port', '70000'], /--port: "70000" must be an integer in 0\.\.65535/],
    [['serve', '--participants', '10x'], /--participants: "10x" is not a whole number/],
    [['rnu'], /unknown command "rnu"; did you mean run\?/],
    [['report', '/bin/ls'], /^coachbench: \/bin\/ls:1:1: not valid JSON: unexpected character at "\\x7fELF/],
  ])('exits 2 with one line for %j', async (args, message) => {
    const result = await runBin(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("exits 2 naming each bad threshold where it was written, the profile's by file and entry, all at once", async () => {
    const path = await profileFile(dir, 'bad-threshold', quickProfile({ duration: '2s', thresholds: ['tagLink.errorRate < 1%', 'photoUpload.erorRate < 1%'] }));
    const result = await runBin(['run', '--profile', path, '--threshold', 'chatStreams.eventLatncyMs.p99 < 250']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(`coachbench: ${path}: thresholds[1]: threshold "photoUpload.erorRate < 1%": unknown metric "erorRate" in photoUpload`);
    expect(result.stderr).toContain('; --threshold: threshold "chatStreams.eventLatncyMs.p99 < 250": unknown metric "eventLatncyMs"');
  });

  it('exits 2 for a report whose HDR payload is corrupt, naming the file and the field', async () => {
    const report = makeReport();
    report.scenarios.chatStreams!.eventLatencyMs.hdr = Buffer.from('not a histogram').toString('base64');
    const path = join(dir, 'corrupt-hdr.json');
    await writeFile(path, JSON.stringify(report));
    const result = await runBin(['report', path]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^coachbench: ${path}: /scenarios/chatStreams/eventLatencyMs/hdr is not a valid HDR histogram \\(.+\\)\n$`));
  });

  it('exits 2 naming the problem for a malformed fixtures file', async () => {
    const fixtures = join(dir, 'bad-fixtures.json');
    await writeFile(fixtures, JSON.stringify({ participants: [{ userId: 'p1', chatSessionIds: [] }] }));
    const result = await runBin(['run', '--target', 'http://127.0.0.1:9', '--fixtures', fixtures], { env: { COACHBENCH_API_KEY: 'k-123456' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('participants[0].chatSessionIds');
    expect(result.stderr).toContain('participants[0].token');
  });

  it('exits 3 when the target cannot be reached, leaving no report folder behind', async () => {
    const fixtures = join(dir, 'fixtures.json');
    await writeFile(fixtures, JSON.stringify({ apiKey: 'k-123456', participants: [{ userId: 'p1', token: 't-123456', chatSessionIds: ['c1'] }] }));
    const out = join(dir, 'unreachable');
    const result = await runBin(['run', '--profile', profilePath, '--target', 'http://127.0.0.1:9', '--fixtures', fixtures, '--out', out, '--quiet']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/not reachable/);
    // Nothing was sent, so nothing is reported: the folder the run made is gone (docs/design.md §2.9).
    expect(existsSync(out)).toBe(false);
    // A folder that was there before stays, with what it held.
    const kept = join(dir, 'unreachable-kept');
    await mkdir(kept);
    await writeFile(join(kept, 'notes.txt'), 'mine');
    expect((await runBin(['run', '--profile', profilePath, '--target', 'http://127.0.0.1:9', '--fixtures', fixtures, '--out', kept, '--quiet'])).code).toBe(3);
    expect(await readdir(kept)).toEqual(['notes.txt']);
  });

  it('on SIGINT writes the partial report marked interrupted and exits 130', async () => {
    const out = join(dir, 'interrupted');
    const longProfile = await profileFile(dir, 'long', quickProfile({ duration: '60s' }));
    const result = await runBin(['run', '--profile', longProfile, '--out', out], {
      onStderr: once(
        (stderr) => stderr.includes('['),
        (pid) => setTimeout(() => process.kill(pid, 'SIGINT'), 1_500),
      ),
    });
    expect(result.code).toBe(130);
    const report = await readRunReport(out);
    expect(report.interrupted).toBe(true);
    expect(report.durationMs).toBeLessThan(10_000);
    expect(report.scenarios.chatStreams!.opened).toBeGreaterThan(0);
  });
});

describe('coachbench run --target (e2e)', () => {
  let target: RunningTarget;
  let fixtures: string;

  beforeAll(async () => {
    target = await startTarget({ participants: 30, sessionsPerParticipant: 2, keepAliveMs: 500 });
    fixtures = join(dir, 'target-fixtures.json');
    // The API key travels in the environment, not in the file or on the command line.
    const { apiKey, ...rest } = target.fixtures;
    await writeFile(fixtures, JSON.stringify(rest));
    void apiKey;
  });
  afterAll(() => target.close());

  it('drives an external target from a fixtures file and COACHBENCH_API_KEY, and never writes the key', async () => {
    const out = join(dir, 'external');
    const result = await runBin(
      ['run', '--profile', profilePath, '--target', target.url, '--fixtures', fixtures, '--expect-keepalive', '500ms', '--out', out, '--quiet'],
      {
        env: { COACHBENCH_API_KEY: target.fixtures.apiKey },
      },
    );
    const text = await readFile(join(out, 'report.json'), 'utf8');
    // A failing run says why through its report's failures (its stderr has the closing lines alone).
    expect(result.code, failures(JSON.parse(text) as Report).join('\n') || result.stderr).toBe(0);
    expect(text).not.toContain(target.fixtures.apiKey);
    expect(text).not.toContain(target.fixtures.coachToken);
    const report = JSON.parse(text) as Report;
    expect(report.target).toEqual({ url: target.url, embedded: false });
    expect(report.scenarios.chatStreams!.keepAliveGapMs.p50).toBeGreaterThan(480);
  });
});

describe('coachbench help, completion and defects (e2e)', () => {
  it('alone prints the help to stderr and exits 2: no command is a usage error', async () => {
    const result = await runBin([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Commands:');
    expect(result.stderr).toMatch(/coachbench run\s/);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe('coachbench: name a command (coachbench run runs the smoke profile)');
  });

  it('--help and --version print to stdout and exit 0', async () => {
    const help = await runBin(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['run', 'serve', 'report', 'compare', 'merge', 'profiles', 'completion']) expect(help.stdout).toContain(`coachbench ${command}`);
    const version = await runBin(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it.each(['run', 'serve', 'report', 'compare', 'merge', 'profiles'])('%s --help exits 0 and shows real examples', async (command) => {
    const result = await runBin([command, '--help']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const examples = result.stdout.slice(result.stdout.indexOf('Examples:'));
    expect(examples.length).toBeGreaterThan('Examples:'.length);
    const lines = examples.split('\n').filter((line) => /^ {2}coachbench /.test(line));
    expect(lines.length).toBeGreaterThanOrEqual(2);
  });

  it('run --help states the accepted units and the maximum duration', async () => {
    const result = await runBin(['run', '--help']);
    expect(result.stdout.replace(/\s+/g, ' ')).toContain('units ms, s, m, h, d; a unit is required; at most 7d');
  });

  it('completion prints a shell completion script that asks coachbench for the commands', async () => {
    const script = await runBin(['completion']);
    expect(script.code).toBe(0);
    expect(script.stdout).toContain('###-begin-coachbench-completions-###');
    expect(script.stdout).toContain('coachbench --get-yargs-completions');
    const words = await runBin(['--get-yargs-completions', 'coachbench', '']);
    expect(words.code).toBe(0);
    expect(words.stdout.split('\n')).toEqual(expect.arrayContaining(['run', 'serve', 'report', 'compare', 'merge', 'profiles']));
    const flags = await runBin(['--get-yargs-completions', 'coachbench', 'run', '--']);
    expect(flags.stdout.split('\n')).toEqual(expect.arrayContaining(['--profile', '--duration', '--workers']));
  });

  it.each([['--help'], ['-h']])('completion %s prints its help, not the script', async (flag) => {
    const help = await runBin(['completion', flag]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^coachbench completion\n\nprint a bash\/zsh completion script/);
    expect(help.stdout).toContain('--help');
    expect(help.stdout).not.toContain('###-begin-coachbench-completions-###');
    expect(help.stderr).toBe('');
  });

  // A defect cannot be produced on purpose through coachbench itself; a preloaded module
  // throws from a timer once bin/ has installed its handlers, as a stray callback would.
  it.each([
    ['an uncaught exception', 'throw new Error("stray timer\\nsecond line")', 'stray timer'],
    ['an unhandled rejection', 'Promise.reject(new Error("stray promise"))', 'stray promise'],
  ])('%s escaping every command is an internal error: exit 4, one line', async (_, statement, message) => {
    const preload = `const t = setInterval(() => { if (process.listenerCount('uncaughtException') > 0) { clearInterval(t); ${statement}; } }, 20);`;
    const result = await runBin(['serve', '--port', '0'], { nodeArgs: ['--import', `data:text/javascript,${encodeURIComponent(preload)}`] });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(`coachbench: internal error: ${message}; please report it (COACHBENCH_DEBUG=1 adds the stack)\n`);
  });
});
