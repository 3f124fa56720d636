// Soak memory benchmark (run by hand, not by `npm run bench`): `coachbench run` of the
// nightly-soak profile (its duration cut to --minutes) against a separately started reference
// target. Every 10 s it samples the driver's RSS from /proc; the driver runs with --trace-gc, so
// the live heap after each full (mark-compact) GC of its main thread is known too. Reported: the
// least-squares slope of both after the warm-up (--from-minute), in MiB/min. Goal (issue 15):
// RSS slope <= 0.05 MiB/min over at least an hour after warm-up. A heap that stays flat while RSS
// climbs points at native memory (sockets, buffers, the allocator), not at our objects; to name
// it, every sample splits RSS into anonymous and file-backed pages, and once a minute smaps
// splits the anonymous part by kind of mapping (bench/lib/memory-map.js). --malloc-arena-max N
// runs the driver with glibc's MALLOC_ARENA_MAX=N, to tell allocator arenas from the rest.
// Writes bench/results/soak.json.
//
//   node bench/soak.js --help   (its flags, from their declaration below)
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseFlags } from './lib/flags.js';
import { rssSplit, smapsByKind } from './lib/memory-map.js';
import { BIN, benchDir, cpuSeconds, exited, rssBytes, startProcess, startServe, stopProcess } from './lib/processes.js';
import { beginMeasurement, resultsFile, writeResults } from './lib/results.js';
import { fullGcHeaps, soakStats } from './lib/soak-stats.js';

const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    minutes: { kind: 'number', default: 70, means: "the run's duration (the profile's own is cut to it)" },
    'from-minute': { kind: 'number', default: 10, means: 'the end of the warm-up: slopes are fitted from here' },
    profile: { kind: 'text', default: 'nightly-soak', means: 'a profile under profiles/ by name, or a .json file' },
    'malloc-arena-max': {
      kind: 'text',
      value: 'N',
      check: (value) => (/^\d+$/.test(value) ? null : 'wants a whole number'),
      means: "runs the driver with glibc's MALLOC_ARENA_MAX=N, to tell allocator arenas from the rest",
    },
    recompute: { kind: 'switch', means: "derives the statistics again from the results file's own samples; nothing is measured" },
  },
});
const MINUTES = flags.minutes;
const FROM_MINUTE = flags['from-minute'];
const ARENA_MAX = flags['malloc-arena-max'];
const driverEnv = ARENA_MAX ? { MALLOC_ARENA_MAX: ARENA_MAX } : {};
/** smaps is read every this many samples (once a minute). */
const SMAPS_EVERY = 6;

if (flags.recompute) {
  // A results file keeps its samples: its statistics can be derived again as soak-stats.js now does.
  const file = resultsFile('soak');
  const saved = JSON.parse(await readFile(file, 'utf8'));
  const stats = soakStats(saved.samples, saved.fromMinute, saved.fullGcHeaps, saved.minutes);
  const { measuredWith, samples, fullGcHeaps, method, ...rest } = saved;
  const keep = Object.fromEntries(
    Object.entries(rest).filter(([key]) => !key.startsWith('rss') && !key.startsWith('heap') && !key.startsWith('max') && key !== 'fullGcs'),
  );
  const recomputedAt = new Date().toISOString();
  const loadOnly = `over minutes ${saved.fromMinute}..${saved.minutes} (the load; the report phase after it is left out);`;
  const updated = {
    measuredWith: { ...measuredWith, recomputedAt },
    ...keep,
    ...stats,
    samples,
    fullGcHeaps,
    method: method.replace(/over minutes \d+\.\.end;/, loadOnly),
  };
  await writeFile(file, `${JSON.stringify(updated, null, 2)}\n`);
  console.log(JSON.stringify(stats, null, 2));
  process.exit(0);
}
const PROFILE = flags.profile;
const profilePath = PROFILE.endsWith('.json') ? PROFILE : new URL(`../profiles/${PROFILE}.json`, import.meta.url).pathname;
const profile = JSON.parse(await readFile(profilePath, 'utf8'));
const participants = profile.chatStreams.participants;
const keepAlive = profile.target?.keepAlive ?? '15s';

const begun = beginMeasurement();
const dir = await benchDir('soak');
const fixtures = join(dir, 'fixtures.json');
const target = await startServe(['--participants', String(participants), '--keepalive', keepAlive, '--fixtures-out', fixtures]);
const samples = [];
let report;
let driverOutput = '';
let exitCode;
try {
  const out = join(dir, 'report');
  const runArgs = ['run', '--profile', profilePath, '--duration', `${MINUTES}m`, '--target', target.url, '--fixtures', fixtures];
  const driver = await startProcess(['--trace-gc', BIN, ...runArgs, '--expect-keepalive', keepAlive, '--out', out, '--quiet'], null, driverEnv);
  const start = performance.now();
  const timer = setInterval(() => {
    try {
      samples.push({
        minute: +((performance.now() - start) / 60_000).toFixed(2),
        rssBytes: rssBytes(driver.child.pid),
        ...rssSplit(driver.child.pid),
        ...(samples.length % SMAPS_EVERY === 0 ? { smaps: smapsByKind(driver.child.pid) } : {}),
        cpuSeconds: cpuSeconds(driver.child.pid),
        targetRssBytes: rssBytes(target.child.pid),
      });
    } catch {
      /* exited */
    }
  }, 10_000);
  exitCode = await exited(driver.child);
  clearInterval(timer);
  driverOutput = driver.output();
  report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
} finally {
  await stopProcess(target.child);
}

const heaps = fullGcHeaps(driverOutput);
const result = {
  profile: profile.name,
  minutes: MINUTES,
  fromMinute: FROM_MINUTE,
  streams: participants * 2,
  mallocArenaMax: ARENA_MAX ?? null,
  exitCode,
  ...soakStats(samples, FROM_MINUTE, heaps, MINUTES),
  verdict: report?.verdict,
  failedChecks: report?.checks.filter((c) => c.status === 'fail').map((c) => `${c.id}: ${c.detail}`),
  timeseriesPoints: report?.timeseries.length,
  events: report && Object.values(report.scenarios.chatStreams.events).reduce((a, b) => a + b, 0),
  samples,
  fullGcHeaps: heaps,
  method: `coachbench run -p ${profile.name} -d ${MINUTES}m against coachbench serve (its own process, ${participants} participants, KEEP_ALIVE ${keepAlive}); driver VmRSS (and RssAnon, RssFile) from /proc/PID/status every 10 s, /proc/PID/smaps by kind of mapping every minute (bench/lib/memory-map.js)${ARENA_MAX ? `; driver run with MALLOC_ARENA_MAX=${ARENA_MAX}` : ''}; live heap = the main isolate's heap after each Mark-Compact from node --trace-gc; slopes are least-squares over minutes ${FROM_MINUTE}..${MINUTES} (the load; the report phase after it is left out); growth and drop are relative to the first sample after minute ${FROM_MINUTE}`,
};
await writeResults('soak', begun, result);
const { samples: _s, fullGcHeaps: _h, ...summary } = result;
console.log(JSON.stringify(summary, null, 2));
