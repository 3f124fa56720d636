// Benchmark: where `coachbench run` spends its CPU, as users run it (bin/coachbench.js), from
// V8's sampling profiler (node --cpu-prof, 1 ms interval, through NODE_OPTIONS). The
// closed-model photo profile of startup.js (16 connections, one 16 KiB JPEG, target on its own
// core) runs for a short and a long duration; each run's main-thread samples are summed by
// owner (a package, one of our dist/ folders, a Node module, V8's GC), and the two runs are
// separated the way startup.js separates the whole process: per owner, perRequest = ΔCPU /
// Δrequests and fixed = CPU(short) − perRequest × requests(short), the short run short enough
// (0.2 s) that the fixed part hardly depends on the per-request estimate. So the summary says both
// what start-up, probes and reports cost and what each answered request costs, and whose code
// it is; the fixed part is also split by phase of the run (module loading, CLI, profile,
// preflight, probes, reports...: docs/benchmarks.md, "A run's fixed cost"). Writes bench/results/cpu-profile.json (summaries; another --size is its variant `size-N`;
// the .cpuprofile files are kept under --keep DIR when given, for a flame graph in Chrome
// DevTools or speedscope).
//
// `--model open` profiles the open model instead (issue 30): `--rate` (500) uploads/s against
// `serve --fault latency=<--delay>ms` (20), so requests are in flight as in bench/peers.js's
// open workload, and the results go to cpu-profile.json's variant open-<rate>[-label]. A closed-model
// run with `--label` goes to the variant closed-<size>-<label> (a build before and after a change, say).
//
//   node bench/cpu-profile.js --help   (its flags, from their declaration below)
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { photoProfile, runCoachbench } from './lib/coachbench-run.js';
import { addSummaries, mainThreadProfiles, summariseProfile } from './lib/cpu-profile-summary.js';
import { parseFlags } from './lib/flags.js';
import { GENERATOR_CPU, startPhotoTarget } from './lib/photo-target.js';
import { benchDir } from './lib/processes.js';
import { beginMeasurement, writeResults } from './lib/results.js';
import { rounder } from './lib/round.js';

const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    short: { kind: 'number', default: 0.2, means: 'seconds of the short run' },
    long: { kind: 'number', default: 4, means: 'seconds of the long run' },
    size: { kind: 'number', default: 16_384, means: 'bytes of the uploaded JPEG' },
    keep: { kind: 'text', value: 'DIR', means: 'keeps the .cpuprofile files under DIR (for a flame graph)' },
    model: { kind: 'text', default: 'closed', choices: ['closed', 'open'], means: 'the workload model' },
    rate: { kind: 'number', default: 500, means: 'uploads per second, with --model open' },
    delay: { kind: 'number', default: 20, means: 'ms the target holds each answer (serve --fault latency), with --model open' },
    label: { kind: 'text', means: 'names the variant of cpu-profile.json (a build before and after a change)' },
    bin: { kind: 'text', value: 'PATH', means: "another build to profile: its bin/coachbench.js (default this checkout's)" },
  },
});
const SHORT = flags.short;
const LONG = flags.long;
const SIZE = flags.size;
const KEEP = flags.keep;
const CONNECTIONS = 16;
const TOP = 30;
const MODEL = flags.model;
const RATE = flags.rate;
const DELAY_MS = flags.delay;
const LABEL = flags.label;
const RUN_BIN = flags.bin;
const workloadOf = () => (MODEL === 'open' ? { model: 'open', ratePerSec: RATE } : { model: 'closed', connections: CONNECTIONS });

const begun = beginMeasurement();
const dir = await benchDir('cpu-profile');
const round = rounder(1);

/** One profiled run: its requests, its /proc CPU, and the main thread's samples by owner and function. */
let runs = 0;
async function profiledRun(target, seconds) {
  const profDir = join(dir, `prof-${++runs}-${seconds}s`);
  const profile = photoProfile(`cpu-profile-${seconds}s`, seconds, SIZE, workloadOf());
  const result = await runCoachbench({
    dir,
    profile,
    targetUrl: target.url,
    fixturesPath: target.fixturesPath,
    cpu: GENERATOR_CPU,
    ...(RUN_BIN ? { bin: RUN_BIN } : {}),
    env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profDir}` },
  });
  const photo = result.report.scenarios.photoUpload;
  if (photo.errors > 0) throw new Error(`${photo.errors} upload errors in a ${seconds} s run: the target is not healthy`);
  // The profile before run's re-execution, when there is one, is part of the run's CPU too: the summaries are added up.
  const files = await mainThreadProfiles(profDir);
  if (files.length === 0 || files.length > 2) throw new Error(`expected one or two main-thread profiles in ${profDir}, found ${files.join(', ') || 'none'}`);
  if (KEEP) await cp(join(profDir, files.at(-1)), join(KEEP, `${MODEL}-${SIZE}-${seconds}s${LABEL ? `-${LABEL}` : ''}.cpuprofile`));
  const summaries = await Promise.all(files.map(async (file) => summariseProfile(JSON.parse(await readFile(join(profDir, file), 'utf8')))));
  const summary = addSummaries(summaries);
  return { seconds, requests: photo.requests, cpuSeconds: result.cpuSeconds, summary };
}

const target = await startPhotoTarget(dir, MODEL === 'open' ? [`latency=${DELAY_MS}ms`] : []);
let short;
let long;
try {
  await profiledRun(target, SHORT); // warm-up (discarded): the target's JIT and the compile cache settle
  short = await profiledRun(target, SHORT);
  long = await profiledRun(target, LONG);
} finally {
  await target.stop();
}

const dRequests = long.requests - short.requests;
const usOf = (summary, key, field) => new Map(summary[field]).get(key) ?? 0;
/** Per owner (or function): fixed ms and µs per request at the margin, the `limit` largest by `order`. */
function separated(field, limit, order = 'perRequestUs') {
  const keys = new Set([...long.summary[field], ...short.summary[field]].map(([k]) => k));
  return [...keys]
    .map((key) => {
      const perRequestUs = (usOf(long.summary, key, field) - usOf(short.summary, key, field)) / dRequests;
      const fixedMs = (usOf(short.summary, key, field) - perRequestUs * short.requests) / 1_000;
      return { [field === 'functions' ? 'function' : field.slice(0, -1)]: key, perRequestUs: round(perRequestUs, 2), fixedMs: round(fixedMs, 0) };
    })
    .sort((a, b) => b[order] - a[order])
    .slice(0, limit);
}

const perRequestUs = ((long.cpuSeconds - short.cpuSeconds) / dRequests) * 1e6;
const sampledPerRequestUs = (long.summary.busyUs - short.summary.busyUs) / dRequests;
const result = {
  goal: `find where the CPU goes (issue${MODEL === 'open' ? ' 30' : 's 15 and 30'}): per request at the margin and fixed per run, by owner`,
  method: {
    run: `${RUN_BIN ?? "this checkout's bin/coachbench.js"} run, photoUpload only (${MODEL === 'open' ? `model open, ${RATE} uploads/s against serve --fault latency=${DELAY_MS}ms` : `model closed, ${CONNECTIONS} connections`}, one ${SIZE} B JPEG), ${SHORT} s and ${LONG} s, after one discarded warm-up; NODE_OPTIONS="--cpu-prof" (1 ms sampling)`,
    owners:
      'self time of the main thread by the script that ran: node_modules package, coachbench:<dist folder>, node:<module>, or V8 ((garbage collector), (program)); native functions without a script are charged to their JS caller',
    phases:
      "the same samples by the phase of the run a function on their stack names (bench/lib/cpu-profile-summary.js PHASE_RULES: module loading, the CLI, the profile, fixtures, preflight, scenario preparation, probes, the report built and written; start (other) before the load's first sample, the load after it); (program) and GC samples take the phase of the sample before them",
    separation: 'per owner: perRequest = (µs in the long run − µs in the short) / Δrequests; fixed = µs in the short − perRequest × its requests',
    pinning: GENERATOR_CPU === null ? 'none (--no-pin)' : `target on CPU 0, coachbench on CPU ${GENERATOR_CPU}`,
    caveat:
      "the profiler samples the main thread only: V8's GC helper threads and the kernel's network stack outside syscalls are in the process CPU, not in the samples",
  },
  runs: [short, long].map((r) => ({
    seconds: r.seconds,
    requests: r.requests,
    processCpuSeconds: r.cpuSeconds,
    sampledMainThreadSeconds: round(r.summary.busyUs / 1e6, 3),
  })),
  processCpuUsPerRequest: round(perRequestUs),
  sampledCpuUsPerRequest: round(sampledPerRequestUs),
  processFixedCpuSeconds: round(short.cpuSeconds - (perRequestUs / 1e6) * short.requests, 3),
  sampledFixedCpuSeconds: round((short.summary.busyUs - sampledPerRequestUs * short.requests) / 1e6, 3),
  owners: separated('owners', TOP),
  functions: separated('functions', TOP),
  fixedOwners: separated('owners', TOP, 'fixedMs'),
  fixedFunctions: separated('functions', TOP, 'fixedMs'),
  // Where the fixed part goes, phase by phase of the run (docs/benchmarks.md, "A run's fixed cost").
  fixedPhases: separated('phases', TOP, 'fixedMs'),
};
// One file for the benchmark (docs/benchmarks.md): the default profile at its top level, the
// others as variants beside it.
const variant = MODEL === 'open' ? `open-${RATE}${LABEL ? `-${LABEL}` : ''}` : LABEL ? `closed-${SIZE}-${LABEL}` : SIZE === 16_384 ? null : `size-${SIZE}`;
await writeResults('cpu-profile', begun, result, variant);
console.log(`per request: ${result.processCpuUsPerRequest} µs (process), ${result.sampledCpuUsPerRequest} µs (sampled main thread)`);
console.log(`fixed: ${result.processFixedCpuSeconds} s (process), ${result.sampledFixedCpuSeconds} s (sampled)`);
for (const o of result.fixedPhases) console.log(`  ${o.phase.padEnd(64)} ${String(o.fixedMs).padStart(6)} ms fixed`);
for (const o of result.fixedOwners.slice(0, 12)) console.log(`  ${o.owner.padEnd(36)} ${String(o.fixedMs).padStart(6)} ms fixed`);
for (const o of result.owners.slice(0, 15))
  console.log(`  ${o.owner.padEnd(36)} ${String(o.perRequestUs).padStart(7)} µs/req  ${String(o.fixedMs).padStart(6)} ms fixed`);
