// Benchmark: where coachbench's closed model spends its CPU per request beside autocannon's CLI
// on the same workload, split by Linux perf (a ruler nobody here wrote, which sees what V8's own
// profiler does not: the kernel, V8's helper threads, the C++ built-ins under each JavaScript
// call). Both run as users run them — `coachbench run` of the closed-model photo profile
// (bin/coachbench.js) and autocannon's CLI (`-c 16 -F`, as bench/lib/rulers.js runs it) — each
// under `perf record -F <frequency>` (cpu-clock samples of the process and every thread and child
// it starts), with node's --perf-basic-prof-only-functions so that compiled JavaScript has names.
// Every sample is given an owner (bench/lib/perf-owners.js); an owner's µs per request is its
// samples × the sampling period / the requests the tool answered, start-up included, so the
// owners add up to the whole process's CPU per request under perf. The two tools take turns,
// order reversed every other repetition; medians per owner.
// Needs perf (Debian: linux-perf) and /proc/sys/kernel/perf_event_paranoid ≤ 2 for the user.
// Writes bench/results/perf-split.json. The figures and what they say: docs/benchmarks.md,
// "Closed model: what stands between coachbench and autocannon's CLI".
//
//   node bench/perf-split.js --help   (its flags, from their declaration below)
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { photoFigures, photoProfile, runCoachbench } from './lib/coachbench-run.js';
import { parseFlags } from './lib/flags.js';
import { median } from './lib/median.js';
import { samplesByOwner } from './lib/perf-owners.js';
import { GENERATOR_CPU, photoBody, startPhotoTarget } from './lib/photo-target.js';
import { benchDir } from './lib/processes.js';
import { beginMeasurement, loadavg1, writeResults } from './lib/results.js';
import { rounder } from './lib/round.js';
import { autocannonCli } from './lib/rulers.js';

const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    seconds: { kind: 'number', default: 8, means: 'duration of each run' },
    reps: { kind: 'number', default: 2, means: 'repetitions; the two tools take turns, order reversed every other one' },
    size: { kind: 'number', default: 16_384, means: 'bytes of the uploaded JPEG' },
    connections: { kind: 'number', default: 16, means: 'connections of both tools' },
    frequency: { kind: 'number', default: 1_999, means: "perf's sampling frequency (Hz of CPU time per thread)" },
  },
});

if (spawnSync('perf', ['--version'], { encoding: 'utf8' }).status !== 0) {
  console.error('perf-split: perf is not installed (Debian: apt-get install linux-perf); nothing measured');
  process.exit(2);
}

const begun = beginMeasurement();
const dir = await benchDir('perf-split');
const target = await startPhotoTarget(dir);
const body = await photoBody(dir, flags.size);
const periodUs = 1e6 / flags.frequency;
const round = rounder(2);
/** Whether `pid` is a live process here; EPERM means it lives under another user (as src/orchestration/run-folder-lock.ts reads it). */
const running = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};
const jitMaps = () => new Set(readdirSync('/tmp').filter((name) => /^perf-\d+\.map$/.test(name)));

/** Runs `measure(wrapper, env)` under perf; resolves with its answered requests and µs per request by owner. */
async function underPerf(label, measure) {
  const data = join(dir, `${label}-${Date.now()}.perf`);
  const mapsBefore = jitMaps();
  // `env -C`: with --perf-basic-prof, V8 also writes an isolate-*.log per isolate into the
  // working directory; the benchmark's own folder takes them, not the user's.
  const wrapper = ['perf', 'record', '-q', '-F', String(flags.frequency), '-o', data, '--', 'env', '-C', dir];
  const requests = await measure(wrapper, { NODE_OPTIONS: '--perf-basic-prof-only-functions' });
  try {
    const { owners, total } = samplesByOwner(data);
    const perRequest = (samples) => round((samples * periodUs) / requests);
    return { requests, usPerRequest: perRequest(total), owners: Object.fromEntries(Object.entries(owners).map(([owner, n]) => [owner, perRequest(n)])) };
  } finally {
    // The maps node wrote for the processes of this run (coachbench: two, the re-execution's),
    // which have exited by now; a map of a process still running is someone else's.
    for (const name of jitMaps()) if (!mapsBefore.has(name) && !running(Number(/\d+/.exec(name)?.[0]))) rmSync(join('/tmp', name), { force: true });
    rmSync(data, { force: true });
  }
}

const tools = {
  coachbench: (wrapper, env) =>
    runCoachbench({
      dir,
      profile: photoProfile('perf-split', flags.seconds, flags.size, { model: 'closed', connections: flags.connections }),
      targetUrl: target.url,
      fixturesPath: target.fixturesPath,
      cpu: GENERATOR_CPU,
      wrapper,
      env,
    }).then((run) => photoFigures(run).requests),
  autocannon: (wrapper, env) =>
    autocannonCli({
      dir,
      url: target.url,
      fixtures: target.fixtures,
      body,
      connections: flags.connections,
      seconds: flags.seconds,
      cpu: GENERATOR_CPU,
      wrapper,
      env,
    }).then((row) => row.requests),
};

const rows = [];
try {
  for (let rep = 1; rep <= flags.reps; rep++) {
    const order = rep % 2 === 1 ? ['coachbench', 'autocannon'] : ['autocannon', 'coachbench'];
    for (const tool of order) {
      const loadavg = loadavg1();
      const row = { repetition: rep, tool, loadavg, ...(await underPerf(tool, tools[tool])) };
      rows.push(row);
      console.log(`${tool}: ${row.requests} requests, ${row.usPerRequest} µs per request under perf (load ${loadavg})`);
    }
  }
} finally {
  await target.stop();
}

/** Per tool, the median over its repetitions of each owner's µs per request (0 where a run had none). */
const medians = {};
for (const tool of Object.keys(tools)) {
  const own = rows.filter((row) => row.tool === tool);
  const owners = new Set(own.flatMap((row) => Object.keys(row.owners)));
  medians[tool] = {
    usPerRequest: round(median(own.map((row) => row.usPerRequest))),
    owners: Object.fromEntries([...owners].map((owner) => [owner, round(median(own.map((row) => row.owners[owner] ?? 0)))])),
  };
}
const difference = (owner) => round((medians.coachbench.owners[owner] ?? 0) - (medians.autocannon.owners[owner] ?? 0));
const split = [...new Set(Object.values(medians).flatMap((m) => Object.keys(m.owners)))]
  .map((owner) => ({
    owner,
    coachbench: medians.coachbench.owners[owner] ?? 0,
    autocannon: medians.autocannon.owners[owner] ?? 0,
    difference: difference(owner),
  }))
  .sort((a, b) => b.difference - a.difference);
for (const line of split)
  console.log(`${line.owner.padEnd(52)} ${String(line.coachbench).padStart(6)} ${String(line.autocannon).padStart(6)} ${String(line.difference).padStart(6)}`);

await writeResults('perf-split', begun, {
  goal: "issue 30: what coachbench's closed model spends per request beyond autocannon's CLI, by owner, from Linux perf",
  method: `closed model, ${flags.connections} connections, ${flags.size}-byte JPEG multipart uploads, ${flags.seconds} s, against coachbench serve on its own CPU; each tool under perf record -F ${flags.frequency} (cpu-clock, every thread and child), node --perf-basic-prof-only-functions; µs per request = samples × ${round(periodUs)} µs / requests answered, start-up included; ${flags.reps} repetitions, medians per owner`,
  settings: { seconds: flags.seconds, reps: flags.reps, imageBytes: flags.size, connections: flags.connections, frequencyHz: flags.frequency },
  medians,
  split,
  rows,
});
