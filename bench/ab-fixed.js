// Benchmark: two builds' fixed CPU per closed-model run (issue 30, docs/benchmarks.md "A run's
// fixed cost"): the photo profile of ab-closed.js (16 connections, one JPEG) for --seconds (0.2),
// this checkout and --bin alternating, order reversed every other pair, against one reference
// target, --pairs times after one discarded run of each. CPU is the whole process's user+sys from
// its rusage (bash's `time`, millisecond resolution: /proc's clock ticks are 10 ms, a fifth of
// what a change to the start moves); the run's requests × --per-request µs (50, about the
// closed model's margin) is taken off, so what is left is the fixed part, and the pairs' median
// difference is what the change saves. Writes bench/results/ab-fixed.json.
//
//   node bench/ab-fixed.js --help   (its flags, from their declaration below)
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { photoProfile } from './lib/coachbench-run.js';
import { parseFlags } from './lib/flags.js';
import { median } from './lib/median.js';
import { GENERATOR_CPU, startPhotoTarget } from './lib/photo-target.js';
import { BIN, benchDir } from './lib/processes.js';
import { beginMeasurement, loadavg1, writeResults } from './lib/results.js';

const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    bin: { kind: 'text', value: 'PATH', required: true, means: 'the other build to compare with: its bin/coachbench.js' },
    pairs: { kind: 'number', default: 12, means: 'pairs of runs, one of each build, in alternating order' },
    seconds: { kind: 'number', default: 0.2, means: 'duration of each run' },
    'per-request': { kind: 'number', default: 50, means: "µs of CPU taken off per answered request (about the closed model's margin)" },
  },
});
const OTHER = flags.bin;
const PAIRS = flags.pairs;
const SECONDS = flags.seconds;
const PER_REQUEST_US = flags['per-request'];

const begun = beginMeasurement();
const dir = await benchDir('ab-fixed');
const target = await startPhotoTarget(dir);
const builds = { thisCheckout: BIN, other: OTHER };
const profilePath = join(dir, 'profile.json');
await writeFile(profilePath, JSON.stringify(photoProfile('ab-fixed', SECONDS, 16_384, { model: 'closed', connections: 16 })));

// bash's `time` reports the child's rusage (wait4), user and sys, to the millisecond.
const TIMED = `TIMEFORMAT='%3U %3S'; { time "$@" >"$CB_OUT" 2>&1 </dev/null; } 2>&1`;
let runs = 0;
/** One run of `bin`: its CPU in ms, its answered requests, and the fixed part. */
async function timedRun(bin) {
  const outDir = join(dir, `run-${++runs}`);
  await mkdir(outDir, { recursive: true });
  const args = [bin, 'run', '--profile', profilePath, '--target', target.url, '--fixtures', target.fixturesPath, '--out', join(outDir, 'report'), '--quiet'];
  const argv = GENERATOR_CPU === null ? [process.execPath, ...args] : ['taskset', '-c', GENERATOR_CPU, process.execPath, ...args];
  const timing = await new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', TIMED, 'bash', ...argv], {
      env: { ...process.env, CB_OUT: join(outDir, 'output.txt') },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
    });
    child.on('error', reject);
    child.on('exit', () => resolve(text.trim()));
  });
  const [user, sys] = timing.split(/\s+/).map(Number);
  const report = JSON.parse(await readFile(join(outDir, 'report', 'report.json'), 'utf8'));
  const requests = report.scenarios.photoUpload.requests;
  const cpuMs = (user + sys) * 1_000;
  return { cpuMs: Math.round(cpuMs), requests, fixedMs: Math.round(cpuMs - (requests * PER_REQUEST_US) / 1_000), loadavg: loadavg1() };
}

const rows = { thisCheckout: [], other: [] };
try {
  for (const bin of Object.values(builds)) await timedRun(bin); // warm-up (discarded): the target's JIT, the page cache
  for (let pair = 0; pair < PAIRS; pair++) {
    const order = pair % 2 === 0 ? ['thisCheckout', 'other'] : ['other', 'thisCheckout'];
    for (const name of order) rows[name].push(await timedRun(builds[name]));
    console.log(`pair ${pair + 1}: fixed ${rows.other.at(-1).fixedMs} → ${rows.thisCheckout.at(-1).fixedMs} ms (load ${rows.thisCheckout.at(-1).loadavg})`);
  }
} finally {
  await target.stop();
}

const differences = rows.thisCheckout.map((row, i) => row.fixedMs - rows.other[i].fixedMs);
const result = {
  goal: "a change to a run's fixed CPU, build against build (issue 30)",
  method: `bin/coachbench.js run of a closed-model photo profile (16 connections, one 16 KiB JPEG) for ${SECONDS} s, --quiet; CPU user+sys from rusage (bash time); fixed = CPU − requests × ${PER_REQUEST_US} µs; ${PAIRS} pairs alternating, order reversed every other pair`,
  builds: { thisCheckout: BIN, other: OTHER },
  medians: Object.fromEntries(
    Object.entries(rows).map(([name, list]) => [name, { cpuMs: median(list.map((r) => r.cpuMs)), fixedMs: median(list.map((r) => r.fixedMs)) }]),
  ),
  fixedDifferenceMs: { median: median(differences), lower: differences.filter((d) => d < 0).length, pairs: differences.length },
  rows,
};
await writeResults('ab-fixed', begun, result);
console.log(JSON.stringify({ medians: result.medians, fixedDifferenceMs: result.fixedDifferenceMs }, null, 1));
