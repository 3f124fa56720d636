/**
 * The benchmark scripts' command lines (bench/lib/flags.js): `--help` prints the usage and
 * exits 0 before anything starts, bad input exits 2 with one line naming the flag, a library's
 * flags are accepted by every script that imports it, the defaults are those the docs quote, and
 * every command line quoted in the docs parses. The scripts run as users run them, with node,
 * from a copy of bench/ (dist, bin and node_modules linked) whose results folder starts empty:
 * a script that started measuring anyway could not touch bench/results/, and is stopped by PID.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BENCH = join(ROOT, 'bench');
const scripts = readdirSync(BENCH)
  .filter((name) => name.endsWith('.js'))
  .sort();
/** Ample on a loaded 2-core machine: a script that parses its flags and exits needs well under a second. */
const EXIT_WITHIN_MS = 25_000;
/** A test that spawns every script, a few at a time, on a machine other work shares. */
const MANY_SPAWNS_MS = 240_000;

let copy = '';
let realResultsBefore = '';
const resultsListing = (dir: string): string =>
  readdirSync(dir)
    .sort()
    .map((name) => `${name} ${statSync(join(dir, name)).mtimeMs}`)
    .join('\n');

beforeAll(() => {
  realResultsBefore = resultsListing(join(BENCH, 'results'));
  copy = mkdtempSync(join(tmpdir(), 'bench-flags-'));
  cpSync(BENCH, join(copy, 'bench'), { recursive: true, filter: (source) => !source.startsWith(join(BENCH, 'results')) });
  mkdirSync(join(copy, 'bench', 'results'));
  cpSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
  for (const linked of ['dist', 'bin', 'node_modules', 'profiles', 'schemas']) symlinkSync(join(ROOT, linked), join(copy, linked));
});

afterAll(() => {
  expect(resultsListing(join(BENCH, 'results')), 'bench/results/ of the checkout').toBe(realResultsBefore);
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node bench/<script> ...args` in the copy (or `root`); a run past `withinMs` is stopped (its process group, by PID) and fails. */
function runBench(script: string, args: string[], withinMs = EXIT_WITHIN_MS, root = copy): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(root, 'bench', script), ...args], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      reject(new Error(`node bench/${script} ${args.join(' ')} was still running after ${withinMs} ms: it started measuring`));
    }, withinMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** Runs each job, at most `width` at once (the machine has two cores). */
async function inTurn<T, R>(items: readonly T[], width: number, job: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await job(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return results;
}

const copyResultsAreEmpty = () => expect(readdirSync(join(copy, 'bench', 'results')), 'results written').toEqual([]);

/** The bench/ files a file imports, directly or not. */
function importsOf(file: string, seen = new Set<string>()): Set<string> {
  for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+\.js)'/g)) {
    const imported = resolve(dirname(file), match[1]!);
    if (!imported.startsWith(BENCH) || seen.has(imported)) continue;
    seen.add(imported);
    importsOf(imported, seen);
  }
  return seen;
}
const flagLibraries = readdirSync(join(BENCH, 'lib'))
  .filter((name) => name.endsWith('.js') && readFileSync(join(BENCH, 'lib', name), 'utf8').includes('libraryFlags(import.meta.url'))
  .map((name) => join(BENCH, 'lib', name));

describe('--help', () => {
  it("prints every script's usage and exits 0 before anything starts (nothing written to bench/results/)", { timeout: MANY_SPAWNS_MS }, async () => {
    expect(flagLibraries.map((library) => relative(ROOT, library)).sort()).toEqual(['bench/lib/photo-target.js', 'bench/lib/results.js']);
    const runs = await inTurn(scripts, 3, (script) => runBench(script, ['--help']));
    for (const [i, script] of scripts.entries()) {
      const run = runs[i]!;
      expect({ script, code: run.code, stderr: run.stderr }).toEqual({ script, code: 0, stderr: '' });
      expect(run.stdout, script).toMatch(new RegExp(`^usage: (npm run build && )?node bench/${script.replace('.', '\\.')} \\[flags\\]`));
      expect(run.stdout, script).toContain('-h, --help');
      // A library's flags are accepted, and listed, by every script that imports it, and by no other.
      const imported = importsOf(join(BENCH, script));
      for (const library of flagLibraries) {
        const heading = `flags of ${relative(ROOT, library)} (every script that imports it):`;
        if (imported.has(library)) expect(run.stdout, script).toContain(heading);
        else expect(run.stdout, script).not.toContain(heading);
      }
    }
    copyResultsAreEmpty();
  });

  it('prints the same for -h, and wins over a flag that is wrong', async () => {
    const [help, short, withBadFlag] = await Promise.all([
      runBench('peers.js', ['--help']),
      runBench('peers.js', ['-h']),
      runBench('peers.js', ['--rep', '3', '--help']),
    ]);
    expect(short).toEqual(help);
    expect(withBadFlag).toEqual(help);
    expect(help.stdout).toContain('  --reps N');
    expect(help.stdout).toMatch(/--rates N,N,\.\.\. +uploads per second of the open workload \(default 500,2000\)/);
    copyResultsAreEmpty();
  });
});

describe('bad input', () => {
  const cases: [string, string[], RegExp][] = [
    ['peers.js', ['--rep', '3'], /^bench\/peers\.js: unknown flag --rep \(did you mean --reps\? --help lists the flags\)$/],
    ['peers.js', ['--seconds', 'ten'], /^bench\/peers\.js: --seconds wants a number, not "ten"$/],
    ['peers.js', ['--reps'], /^bench\/peers\.js: --reps wants a number after it$/],
    ['peers.js', ['--rates', '500,fast'], /^bench\/peers\.js: --rates wants numbers separated by commas .*"500,fast"$/],
    ['peers.js', ['--only', 'closed,bogus'], /^bench\/peers\.js: --only wants any of closed, open, latency, streams, not "bogus"$/],
    ['startup.js', ['--bin', '--no-pin'], /^bench\/startup\.js: --bin wants PATH after it, not the flag --no-pin$/],
    ['startup.js', ['--reps', '3', '--reps', '5'], /^bench\/startup\.js: --reps is given twice$/],
    ['streams.js', ['--no-pin'], /^bench\/streams\.js: unknown flag --no-pin /],
    ['throughput-open.js', ['--seconds=8', '--stray'], /^bench\/throughput-open\.js: unknown flag --stray /],
    ['redact.js', ['5000'], /^bench\/redact\.js: unexpected argument "5000" /],
    ['ab-closed.js', ['--pairs', '2'], /^bench\/ab-closed\.js: --bin is required: /],
    ['heap-diff.js', ['earlier.heapsnapshot'], /^bench\/heap-diff\.js: LATER\.heapsnapshot is missing /],
    ['bare-client.js', ['f.json', 'http://127.0.0.1:1', 'many', '10', '5'], /^bench\/bare-client\.js: STREAMS wants a number, not "many"$/],
  ];

  it('exits 2 with one line naming the flag and what is wrong, no stack trace, before anything starts', { timeout: MANY_SPAWNS_MS }, async () => {
    const runs = await inTurn(cases, 3, ([script, args]) => runBench(script, args));
    for (const [i, [script, args, line]] of cases.entries()) {
      const run = runs[i]!;
      const label = `node bench/${script} ${args.join(' ')}`;
      expect({ label, code: run.code, stdout: run.stdout }).toEqual({ label, code: 2, stdout: '' });
      expect(run.stderr.endsWith('\n') && run.stderr.split('\n').length === 2, `${label}: one line, not ${JSON.stringify(run.stderr)}`).toBe(true);
      expect(run.stderr.trim(), label).toMatch(line);
    }
    copyResultsAreEmpty();
  });
});

/** `--dry-run`'s values of a command line. */
async function dryRun(script: string, args: string[]): Promise<Record<string, unknown>> {
  const run = await runBench(script, [...args, '--dry-run']);
  expect({ script, args, code: run.code, stderr: run.stderr }).toEqual({ script, args, code: 0, stderr: '' });
  return JSON.parse(run.stdout).values;
}

describe('the flags as they were', () => {
  it('keep their defaults, also those that depend on a switch, and take a library flag', { timeout: MANY_SPAWNS_MS }, async () => {
    const [streams, streamsTls, streamsFull, workersH2, peers, throughputOpen] = await Promise.all([
      dryRun('streams.js', []),
      dryRun('streams.js', ['--tls']),
      dryRun('streams.js', ['--full']),
      dryRun('workers.js', ['--h2']),
      dryRun('peers.js', ['--only', 'open', '--tools=coachbench,floor', '--note', 'shared machine']),
      dryRun('throughput-open.js', ['--no-pin', '--out', '/tmp/elsewhere.json', '--rates', '500,1000']),
    ]);
    expect(streams).toMatchObject({ streams: 5_000, 'accuracy-streams': 2_000, hold: 30, 'accuracy-hold': 20, ramp: 1_000, only: null });
    expect(streamsTls).toMatchObject({ tls: true, streams: 10_000, hold: 30 });
    expect(streamsFull).toMatchObject({ streams: 19_000, 'accuracy-streams': 5_000, hold: 45, 'accuracy-hold': 45 });
    expect(workersH2).toMatchObject({ streams: 100_000, 'driver-workers': [3], 'target-workers': 3, hold: 32 });
    expect(peers).toMatchObject({
      reps: 3,
      seconds: 10,
      rates: [500, 2_000],
      only: ['open'],
      tools: ['coachbench', 'floor'],
      note: 'shared machine',
      'no-pin': false,
    });
    expect(throughputOpen).toMatchObject({ 'no-pin': true, out: '/tmp/elsewhere.json', rates: [500, 1_000], 'sink-rates': [6_000, 8_000, 10_000, 12_000] });
    copyResultsAreEmpty();
  });

  it(
    'npm run bench passes --full and --no-pin on only to the benchmarks that accept them, and each of its command lines parses',
    { timeout: MANY_SPAWNS_MS },
    async () => {
      // run-all.js asks each of its eleven benchmarks for its flags (--dry-run), one after another.
      const list = await runBench('run-all.js', ['--full', '--no-pin', '--list'], MANY_SPAWNS_MS / 2);
      expect(list.code).toBe(0);
      const lines = list.stdout.trim().split('\n');
      expect(lines).toContain('node bench/streams.js --tls --full');
      expect(lines).toContain('node bench/workers.js --full');
      expect(lines).toContain('node bench/peers.js --no-pin');
      await inTurn(lines, 3, (line) => {
        const [, script, ...args] = line.split(' ');
        return dryRun(script!.replace('bench/', ''), args);
      });
      copyResultsAreEmpty();
    },
  );
});

/** Shell words of a command line (single and double quotes; nothing else a shell does is needed here). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3]!);
}

interface Quoted {
  where: string;
  script: string;
  args: string[];
  /** Flags named in a comment beside the command, `# [--reps 3] ...`, with the value quoted (a default, when it is numbers). */
  optional: { flag: string; value: string | undefined }[];
}

/** Every `node bench/<script>.js ...` the docs quote: inline code spans and lines of code blocks. */
function quotedCommandLines(): Quoted[] {
  const docs = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs'), { recursive: true }).map((name) => join('docs', String(name)))].filter(
    (path) => path.endsWith('.md'),
  );
  const quoted: Quoted[] = [];
  const add = (where: string, text: string) => {
    const [command = '', comment = ''] = text.replace(/<[^>]*>/g, 'X').split(/\s#\s/);
    const at = command.search(/node bench\/[a-z0-9-]+\.js/);
    const [, script, ...args] = shellWords(command.slice(at).split(/&&|;|\|/)[0]!);
    quoted.push({
      where,
      script: script!.replace('bench/', ''),
      args,
      optional: [...comment.matchAll(/\[(--[a-z0-9-]+)(?: ([^\]]+))?\]/g)].map((match) => ({ flag: match[1]!, value: match[2] })),
    });
  };
  for (const path of docs) {
    const text = readFileSync(join(ROOT, path), 'utf8');
    const blocks = text.split(/^```.*$/m);
    for (const [i, block] of blocks.entries()) {
      if (i % 2 === 1) {
        for (const line of block.split('\n')) if (/node bench\/[a-z0-9-]+\.js/.test(line)) add(`${path} (code block): ${line.trim()}`, line);
        continue;
      }
      for (const match of block.matchAll(/`([^`]+)`/g)) {
        const span = match[1]!.replace(/\s+/g, ' ');
        if (/node bench\/[a-z0-9-]+\.js/.test(span)) add(`${path}: ${span}`, span);
      }
    }
  }
  return quoted;
}

describe('the command lines the docs quote', () => {
  it(
    'each parses (its --dry-run exits 0), and each flag a comment beside it names exists, with the default it quotes',
    { timeout: MANY_SPAWNS_MS },
    async () => {
      const quoted = quotedCommandLines();
      expect(quoted.length).toBeGreaterThan(15);
      expect(quoted.map((line) => line.script)).toEqual(
        expect.arrayContaining(['peers.js', 'open-error.js', 'cpu-profile.js', 'startup-machinery.js', 'ab-closed.js']),
      );
      for (const line of quoted) expect(scripts, line.where).toContain(line.script);
      const runs = await inTurn(quoted, 3, (line) => runBench(line.script, [...line.args, '--dry-run']));
      for (const [i, line] of quoted.entries()) {
        expect({ where: line.where, code: runs[i]!.code, stderr: runs[i]!.stderr }).toEqual({ where: line.where, code: 0, stderr: '' });
        const values: Record<string, unknown> = JSON.parse(runs[i]!.stdout).values;
        for (const { flag, value } of line.optional) {
          if (value === undefined || !/^\d[\d.,]*$/.test(value) || line.args.includes(flag)) continue;
          const actual = values[flag.slice(2)];
          expect(Array.isArray(actual) ? actual.join(',') : String(actual), `${line.where}: the default of ${flag}`).toBe(value);
        }
      }
      const withOptional = quoted.filter((line) => line.optional.length > 0);
      expect(withOptional.length).toBeGreaterThan(3);
      const usages = await inTurn(withOptional, 3, (line) => runBench(line.script, ['--help']));
      for (const [i, line] of withOptional.entries())
        for (const { flag } of line.optional) expect(usages[i]!.stdout, `${line.where}: ${flag}`).toMatch(new RegExp(`^ {2}${flag}\\b`, 'm'));
      copyResultsAreEmpty();
    },
  );
});

describe('a checkout not built yet', () => {
  it('answers --help and --dry-run, and a script that measures the build says to build it, in one line', async () => {
    const unbuilt = mkdtempSync(join(tmpdir(), 'bench-flags-unbuilt-'));
    cpSync(join(copy, 'bench'), join(unbuilt, 'bench'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(unbuilt, 'package.json'));
    for (const linked of ['bin', 'node_modules', 'profiles', 'schemas']) symlinkSync(join(ROOT, linked), join(unbuilt, linked));
    const run = (script: string, args: string[]): Promise<Run> => runBench(script, args, EXIT_WITHIN_MS, unbuilt);
    for (const script of ['peers.js', 'throughput-closed.js', 'cpu-profile.js']) {
      expect((await run(script, ['--help'])).code, `${script} --help`).toBe(0);
      expect((await run(script, ['--dry-run'])).code, `${script} --dry-run`).toBe(0);
    }
    const measured = await run('throughput-closed.js', ['--reps', '1']);
    expect({ code: measured.code, stderr: measured.stderr }).toEqual({
      code: 2,
      stderr: "bench/throughput-closed.js: measures this checkout's build, and dist/ has none: run npm run build first\n",
    });
    expect(readdirSync(join(unbuilt, 'bench', 'results'))).toEqual([]);
  }, 60_000);
});
