// Benchmark: the fixed CPU of one `coachbench run` (start-up, corpus, probes, reports) and the
// CPU per request at the margin, separated the way issue 15 asks: the same closed-model photo
// profile run for a short and a long duration, as users run it (bin/coachbench.js), against the
// reference target in its own process. With CPU = fixed + perRequest × requests for both runs
// of a pair, perRequest = ΔCPU / Δrequests and fixed = CPU(short) − perRequest × requests(short);
// the medians over the pairs are reported. The short run is short (0.2 s, a few hundred
// requests) so that the fixed cost hardly depends on the per-request estimate
// (docs/benchmarks.md, "Figures behind the code"). Also the
// CPU of `coachbench --version` (loading the CLI and nothing else), with Node's compile cache
// and without it.
//
//   node bench/startup.js --help   (its flags, from their declaration below)
//
// --bin measures another build (a worktree of an older commit, say) against the same target;
// give it --out FILE so that bench/results/startup.json keeps this checkout's latest figures.

import { createRequire } from 'node:module';
import { join } from 'node:path';
import { photoProfile, runCoachbench } from './lib/coachbench-run.js';
import { parseFlags } from './lib/flags.js';
import { outFileIn, runMeasured } from './lib/measured-command.js';
import { median } from './lib/median.js';
import { GENERATOR_CPU, startPhotoTarget } from './lib/photo-target.js';
import { BIN, benchDir } from './lib/processes.js';
import { beginMeasurement, writeResults } from './lib/results.js';
import { rounder } from './lib/round.js';

const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    short: { kind: 'number', default: 0.2, means: 'seconds of the short run of each pair' },
    long: { kind: 'number', default: 4, means: 'seconds of the long run of each pair' },
    reps: { kind: 'number', default: 5, means: 'pairs of runs; the medians over them are reported' },
    bin: { kind: 'text', value: 'PATH', default: BIN, means: 'the build measured: its bin/coachbench.js; for another build, give --out FILE too' },
  },
});
const SHORT = flags.short;
const LONG = flags.long;
const REPS = flags.reps;
const bin = flags.bin;
const CONNECTIONS = 16;
const SIZE = 16_384;

const begun = beginMeasurement();
const dir = await benchDir('startup');
const round = rounder(1);

async function versionCpu(env) {
  const result = await runMeasured(process.execPath, [bin, '--version'], { cpu: GENERATOR_CPU, env, outFile: outFileIn(dir, 'version') });
  if (result.code !== 0) throw new Error(`coachbench --version exited ${result.code}: ${result.output}`);
  return result.cpuSeconds;
}

async function run(target, seconds) {
  const profile = photoProfile(`startup-${seconds}s`, seconds, SIZE, { model: 'closed', connections: CONNECTIONS });
  const result = await runCoachbench({ dir, profile, targetUrl: target.url, fixturesPath: target.fixturesPath, cpu: GENERATOR_CPU, bin });
  const photo = result.report.scenarios.photoUpload;
  if (photo.errors > 0) throw new Error(`${photo.errors} upload errors in a ${seconds} s run: the target is not healthy`);
  return { seconds, requests: photo.requests, cpuSeconds: result.cpuSeconds, wallSeconds: round(result.wallSeconds, 2) };
}

/**
 * The floor under the fixed CPU: loading each package a closed-model run needs, alone, in a
 * fresh `node` with a warm compile cache (as bin/coachbench.js runs), median of 5. A run cannot
 * start for less than these together, whatever coachbench's own code does. Of autocannon a run
 * loads only its connection class (src/drivers/throughput/autocannon-connections.ts). ajv is
 * measured too: runs loaded it until their validators were compiled at build time.
 */
const PACKAGES = ['undici', 'yargs', 'autocannon/lib/httpClient.js', 'hdr-histogram-js', 'ajv'];
async function nodeCpu(label, script) {
  const env = { NODE_COMPILE_CACHE: join(dir, 'compile-cache') };
  const runs = [];
  for (let rep = 0; rep < 6; rep++) {
    const result = await runMeasured(process.execPath, ['-e', script], { cpu: GENERATOR_CPU, env, outFile: outFileIn(dir, 'package') });
    if (result.code !== 0) throw new Error(`${label} failed: ${result.output}`);
    if (rep > 0) runs.push(result.cpuSeconds); // the first fills the cache
  }
  return round(median(runs), 3);
}
const packageLoadCpuSeconds = { 'node -e 0': await nodeCpu('node -e 0', '0') };
for (const name of PACKAGES) {
  packageLoadCpuSeconds[name] = await nodeCpu(`loading ${name}`, `require(${JSON.stringify(createRequire(import.meta.url).resolve(name))})`);
}

// The first call fills the compile cache (when this build enables it); later calls read it.
const cached = [];
const uncached = [];
for (let rep = 0; rep < 5; rep++) {
  cached.push(await versionCpu({}));
  uncached.push(await versionCpu({ NODE_DISABLE_COMPILE_CACHE: '1' }));
}

const target = await startPhotoTarget(dir);
const pairs = [];
try {
  await run(target, SHORT); // warm-up (discarded): the target's JIT and the compile cache settle
  for (let rep = 0; rep < REPS; rep++) {
    // Alternate which duration goes first, so that neither always follows the other.
    const [a, b] = rep % 2 === 0 ? [SHORT, LONG] : [LONG, SHORT];
    const first = await run(target, a);
    const second = await run(target, b);
    const [short, long] = a === SHORT ? [first, second] : [second, first];
    const perRequestUs = ((long.cpuSeconds - short.cpuSeconds) / (long.requests - short.requests)) * 1e6;
    const fixedSeconds = short.cpuSeconds - (perRequestUs / 1e6) * short.requests;
    pairs.push({ short, long, perRequestUs: round(perRequestUs), fixedSeconds: round(fixedSeconds, 3) });
    console.log(`rep ${rep + 1}: fixed ${fixedSeconds.toFixed(2)} s, ${perRequestUs.toFixed(1)} us/request at the margin`);
  }
} finally {
  await target.stop();
}

await writeResults('startup', begun, {
  goal: 'fixed CPU per run (start-up, probes, reports) <= 0.5 s (issue 15)',
  build: bin === BIN ? 'this checkout' : bin,
  method: {
    run: `bin/coachbench.js run, photoUpload only (model closed, ${CONNECTIONS} connections, one ${SIZE} B JPEG), ${SHORT} s and ${LONG} s; requests from its report.json`,
    cpu: 'utime+stime of the coachbench process from /proc, start to exit (bench/lib/measured-command.js)',
    separation:
      'per pair: perRequest = (CPU long − CPU short) / (requests long − requests short); fixed = CPU short − perRequest × requests short; medians over pairs',
    packages: `node -e 'require(NAME)' for ${PACKAGES.join(', ')}, each alone in a fresh process with a warm compile cache (NODE_COMPILE_CACHE), median of 5 after one that fills the cache; "node -e 0" is Node itself. Each includes Node's own start`,
    version:
      'coachbench --version, 5 times each as bin/coachbench.js runs it (no compile cache since issue 29: docs/benchmarks.md, "Start-up machinery") and with NODE_DISABLE_COMPILE_CACHE=1',
    pinning: GENERATOR_CPU === null ? 'none (--no-pin)' : `target on CPU 0, coachbench on CPU ${GENERATOR_CPU} (taskset)`,
  },
  versionCpuSeconds: { compileCache: round(median(cached), 3), noCompileCache: round(median(uncached), 3) },
  packageLoadCpuSeconds,
  medianFixedCpuSeconds: round(median(pairs.map((p) => p.fixedSeconds)), 3),
  medianCpuUsPerRequest: round(median(pairs.map((p) => p.perRequestUs))),
  pairs,
});
