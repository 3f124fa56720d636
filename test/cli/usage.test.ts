/**
 * The command line forgives nothing silently (docs/design.md §2.10): every bad flag of
 * every command is one line on stderr naming the flag, and exit 2, before anything starts.
 * In-process (src/, no build); test/e2e/cli.test.ts proves the same through bin/.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/util/errors.js';
import { quickProfile, writeProfile } from '../support/profiles.js';
import { runCli } from '../support/run-cli.js';

const REPORT = 'docs/example-report/report.json';
/** A file in a folder that does not exist: no command may create its parents. */
const UNWRITABLE = join(tmpdir(), `coachbench-no-such-folder-${process.pid}`, 'out.md');

describe('usage errors exit 2 with one line', () => {
  it.each<[string[], string | RegExp]>([
    // Durations: a unit is required, compound forms are fine, 7d at most.
    [['run', '--duration', '30'], '--duration: "30" has no unit (units ms, s, m, h, d; e.g. 500ms, 30s, 1.5s, 2m30s, 1h30m)'],
    [['run', '--duration', '999999999h'], '--duration: "999999999h" is longer than the maximum, 7d'],
    [['run', '--duration', '0s'], '--duration: must be greater than 0'],
    [['run', '--duration', '30m1h'], /--duration: "30m1h": write the units largest first/],
    [['run', '--expect-keepalive', '15'], /^--expect-keepalive: "15" has no unit \(units ms, s, m, h, d/],
    [['serve', '--keepalive', '500'], /^--keepalive: "500" has no unit \(units ms, s, m, h, d/],
    // A KEEP_ALIVE expected every 0 ms would fail every stream's cadence and stall checks: the floor of serve --keepalive.
    [['run', '--expect-keepalive', '0s'], '--expect-keepalive: "0s" must be at least 10ms (the shortest interval serve --keepalive takes)'],
    [['run', '--expect-keepalive', '5ms'], '--expect-keepalive: "5ms" must be at least 10ms (the shortest interval serve --keepalive takes)'],
    // Numbers: typed, whole, in range.
    [['run', '--workers', 'abc'], '--workers: "abc" must be a whole number in 1..64 or auto'],
    [['run', '--workers', '1.5'], '--workers: "1.5" must be a whole number in 1..64 or auto'],
    [['run', '--workers', '-1'], '--workers: "-1" must be a whole number in 1..64 or auto'],
    [['run', '--workers', '65'], '--workers: "65" must be a whole number in 1..64 or auto'],
    [['run', '--shard', '4/4'], '--shard: "4/4" must be I/N with 0 <= I < N (e.g. 0/4)'],
    [['run', '--shard', '0/100000000'], '--shard: "0/100000000" splits the run into 100000000 shards; at most 1000'],
    [
      ['run', '--shard', '0/301'],
      '--shard 0/301: 301 shards but profiles/smoke.json holds 300 participants; each shard holds every N-th participant, so use at most 300 shards',
    ],
    [['serve', '--port', '70000'], '--port: "70000" must be an integer in 0..65535'],
    [['serve', '--port', '-1'], '--port: "-1" must be an integer in 0..65535'],
    [['serve', '--port', 'abc'], '--port: "abc" is not a whole number (decimal digits, e.g. 8080)'],
    [['serve', '--port', '0x50'], '--port: "0x50" is not a whole number (decimal digits, e.g. 8080)'],
    [['serve', '--port', ''], '--port: "" is not a whole number (decimal digits, e.g. 8080)'],
    [['serve', '--participants', '10x'], '--participants: "10x" is not a whole number (decimal digits, e.g. 8080)'],
    [['serve', '--participants', '2.5'], '--participants: "2.5" is not a whole number (decimal digits, e.g. 8080)'],
    [['serve', '--participants', '0'], '--participants: "0" must be an integer in 1..1000000'],
    [['serve', '--sessions', '1e9'], '--sessions: "1e9" is not a whole number (decimal digits, e.g. 8080)'],
    [['serve', '--sessions', '2000'], '--sessions: "2000" must be an integer in 1..1000'],
    [['serve', '--seed', 'x'], '--seed: "x" is not a whole number (decimal digits, e.g. 8080)'],
    [['serve', '--workers', 'many'], '--workers: "many" must be an integer in 1..64 or auto'],
    // A TLS file that is no PEM is the user's file, not a defect (exit 4 when the server started).
    [
      ['serve', '--port', '0', '--tls-cert', 'package.json', '--tls-key', 'package.json'],
      '--tls-cert package.json: not a PEM file (no "-----BEGIN ...-----" block of the right kind)',
    ],
    [['compare', REPORT, REPORT, '--max-regression', 'lots'], '--max-regression: "lots" is not a limit (write e.g. 10% or 0.1)'],
    [['compare', REPORT, REPORT, '--floor', 'ms=abc'], /--floor: "ms=abc" must be UNIT=NUMBER/],
    // An output path that cannot take its file is the user's path, not a defect (exit 4 before).
    [['compare', REPORT, REPORT, '--markdown', UNWRITABLE], `--markdown ${UNWRITABLE}: ENOENT, no such file or directory`],
    [['compare', REPORT, REPORT, '--html', tmpdir()], `--html ${tmpdir()}: EISDIR, illegal operation on a directory`],
    // A flag given twice, or without its value.
    [['run', '--duration', '1s', '--duration', '2s'], '--duration: given 2 times; give it once'],
    [['serve', '--port', '1', '--port', '2'], '--port: given 2 times; give it once'],
    [['run', '--profile', 'smoke', '-p', 'release'], '--profile: given 2 times; give it once'],
    [['merge', REPORT, '--out', 'a', '--out', 'b'], '--out: given 2 times; give it once'],
    [['run', '--out'], 'Not enough arguments following: out (see coachbench run --help)'],
    [['serve', '--port'], 'Not enough arguments following: port (see coachbench serve --help)'],
    [['run', '--threshold'], 'Not enough arguments following: threshold (see coachbench run --help)'],
    // Unknown commands and flags (yargs strict mode), typos suggest the closest command.
    [['rnu'], 'unknown command "rnu"; did you mean run?'],
    [['serv'], 'unknown command "serv"; did you mean serve?'],
    [['xyzzy'], 'Unknown argument: xyzzy (see coachbench --help)'],
    // A flag before the command is named, whatever yargs made of the rest.
    [['--bogus'], '--bogus: a flag before the command; name the command first, then its flags (see coachbench --help)'],
    [['--bogus', 'run'], '--bogus: a flag before the command; name the command first, then its flags (see coachbench --help)'],
    [['-p', 'smoke', 'plan'], '-p: a flag before the command; name the command first, then its flags (see coachbench --help)'],
    [['run', '--frobnicate'], 'Unknown argument: frobnicate (see coachbench run --help)'],
    [['run', 'extra'], 'Unknown argument: extra (see coachbench run --help)'],
    [['report'], 'Not enough non-option arguments: got 0, need at least 1 (see coachbench report --help)'],
    [['compare', REPORT], 'Not enough non-option arguments: got 1, need at least 2 (see coachbench compare --help)'],
    [['compare', REPORT, REPORT, REPORT], /Unknown argument/],
    [['profiles', 'smoke'], /Unknown argument: smoke/],
    // Profiles.
    [['run', '--profile', 'no-such-profile'], '--profile "no-such-profile": no such file or built-in profile (see coachbench profiles)'],
    [['run', '--profile', '/bin/ls'], /^\/bin\/ls:1:1: not valid JSON \(comments and trailing commas are allowed\): unexpected character at "\\x7fELF/],
  ])('%j', async (argv, message) => {
    const result = await runCli(argv);
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const line = (lines[0] ?? '').replace(/^coachbench: /, '');
    if (typeof message === 'string') expect(line).toBe(message);
    else expect(line).toMatch(message);
  });
});

describe("a profile's expectKeepAlive", () => {
  it('is held to the same floor as --expect-keepalive, naming the file and the field', async () => {
    const { path } = await writeProfile(quickProfile({ expectKeepAlive: '0s' }));
    const result = await runCli(['run', '--profile', path]);
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stderr).toBe(`coachbench: ${path}: expectKeepAlive must be at least 10ms (the shortest interval serve --keepalive takes)\n`);
    // The flag wins over the profile, and is judged in its place.
    expect((await runCli(['run', '--profile', path, '--expect-keepalive', '1ms'])).stderr).toMatch(/^coachbench: --expect-keepalive: "1ms" must be/);
  });
});

describe('a bad environment variable is named as the variable, not as a flag never given', () => {
  const VARIABLES = ['COACHBENCH_TARGET', 'COACHBENCH_TOKEN_COMMAND', 'COACHBENCH_START_AT'] as const;
  type Variables = Partial<Record<(typeof VARIABLES)[number], string>>;

  it.each<[Variables, string[], string | RegExp]>([
    [
      { COACHBENCH_TARGET: 'ftp://127.0.0.1:9' },
      ['run', '--fixtures', 'fixtures.json'],
      'COACHBENCH_TARGET: "ftp://127.0.0.1:9": only http and https are supported',
    ],
    [
      { COACHBENCH_TARGET: 'http://user:pw@127.0.0.1:9' },
      ['run', '--fixtures', 'fixtures.json'],
      'COACHBENCH_TARGET: put credentials in COACHBENCH_* variables, not in the URL',
    ],
    [{ COACHBENCH_TARGET: 'http://127.0.0.1:9' }, ['run'], 'COACHBENCH_TARGET needs --fixtures FILE (who the virtual participants are; see docs/design.md §3)'],
    [
      { COACHBENCH_TARGET: 'ftp://127.0.0.1:9' },
      ['run', '--target', 'gopher://127.0.0.1:9', '--fixtures', 'f.json'],
      '--target: "gopher://127.0.0.1:9": only http and https are supported',
    ],
    [
      { COACHBENCH_TOKEN_COMMAND: 'echo token' },
      ['run'],
      'COACHBENCH_TOKEN_COMMAND is for --target runs: the embedded target issues tokens that do not expire',
    ],
    [{ COACHBENCH_START_AT: 'soon' }, ['run'], /^COACHBENCH_START_AT: "soon" is not an RFC 3339 time/],
  ])('%j %j', async (env, argv, message) => {
    const saved = VARIABLES.map((name) => [name, process.env[name]] as const);
    Object.assign(process.env, env);
    try {
      const result = await runCli(argv);
      expect(result.code).toBe(ExitCode.usage);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      const line = (lines[0] ?? '').replace(/^coachbench: /, '');
      if (typeof message === 'string') expect(line).toBe(message);
      else expect(line).toMatch(message);
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
