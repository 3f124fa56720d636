// Benchmark: how many concurrent streams this machine holds with `coachbench run --workers` on
// the driver (bin/coachbench.js with a profile written here) and `serve --workers` on the target,
// every event parsed and checked, with the CPU and peak RSS of every process. Writes
// bench/results/workers.json.
//
//   node bench/workers.js --help   (its flags, from their declaration below)
//
// `--h2`: `serve --http2` (h2c) and `run --http 2`, one connection per participant, so a
// process holds twice the streams under the same descriptor limit; 100,000 streams on 3 driver
// and 3 target workers by default, written as the `h2` variant of bench/results/workers.json.
// By default 8,000 streams with 1 and 2 driver workers, 32 s hold (about a minute and a half);
// `--full` is the sizing run: 40,000 streams, 1, 2 and 3 driver workers, 3 target workers, 45 s,
// written as the `full` variant (each variant replaces only its own entry under `variants`).
// Each process holds at most ~19,000 streams under the 20,000-descriptor limit, so 40,000 streams
// need three driver workers; the 1- and 2-worker rows show what fewer processes hold.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseFlags } from './lib/flags.js';
import { BIN, benchDir, exited, startProcess, startServe, stopProcess, treeSampler } from './lib/processes.js';
import { beginMeasurement, writeResults } from './lib/results.js';

const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    full: { kind: 'switch', means: 'the sizing run: 40,000 streams, 1, 2 and 3 driver workers, 3 target workers, 45 s (the `full` variant)' },
    h2: { kind: 'switch', means: 'h2c, one connection per participant: 100,000 streams on 3 and 3 workers (the `h2` variant)' },
    streams: { kind: 'number', default: ({ h2, full }) => (h2 ? 100_000 : full ? 40_000 : 8_000), means: 'streams held, at most ~19,000 per driver process' },
    'driver-workers': {
      kind: 'numbers',
      default: ({ h2, full }) => (h2 ? [3] : full ? [1, 2, 3] : [1, 2]),
      means: 'driver workers (`run --workers`), one run each',
    },
    'target-workers': { kind: 'number', default: ({ h2, full }) => (h2 || full ? 3 : 2), means: 'target workers (`serve --workers`)' },
    // At least 2 × the 15 s KEEP_ALIVE after the last stream opens, so every run has cadence evidence.
    hold: { kind: 'number', default: ({ full }) => (full ? 45 : 32), means: 'seconds the streams are held after the ramp' },
  },
});
const FULL = flags.full;
const H2 = flags.h2;
const STREAMS = flags.streams;
const DRIVER_WORKERS = flags['driver-workers'];
const TARGET_WORKERS = flags['target-workers'];
const HOLD_SEC = flags.hold;
// Descriptors bound a process: one per stream over HTTP/1.1, one per participant (two streams) over h2.
const PER_PROCESS = H2 ? 38_000 : 19_000;
const RAMP_PER_SEC = 1_000;
const begun = beginMeasurement();
const dir = await benchDir('workers');
const rows = [];

for (const workers of DRIVER_WORKERS) {
  const streams = Math.min(STREAMS, workers * PER_PROCESS);
  const participants = Math.ceil(streams / 2);
  const fixtures = join(dir, `fixtures-${workers}.json`);
  const target = await startServe([
    '--workers',
    String(TARGET_WORKERS),
    '--participants',
    String(participants),
    '--keepalive',
    '15s',
    '--fixtures-out',
    fixtures,
    ...(H2 ? ['--http2'] : []),
  ]);
  const targetSampler = treeSampler(target.child.pid, 'target');
  try {
    const profile = join(dir, `profile-${workers}.json`);
    const rampSec = participants / (RAMP_PER_SEC / 2);
    await writeFile(
      profile,
      JSON.stringify({
        name: `bench-workers-${workers}`,
        duration: `${Math.ceil(rampSec + HOLD_SEC)}s`,
        chatStreams: { participants, rampPerSec: RAMP_PER_SEC / 2, switchEvery: '0s', messageRatePerSec: 200, churnRatePerSec: 0, openTimeout: '30s' },
        generator: { maxEventLoopDelayP99: '100ms' },
      }),
    );
    const out = join(dir, `report-${workers}`);
    const driver = await startProcess(
      [
        BIN,
        'run',
        '--profile',
        profile,
        '--target',
        target.url,
        '--fixtures',
        fixtures,
        '--workers',
        String(workers),
        '--expect-keepalive',
        '15s',
        '--out',
        out,
        '--quiet',
        ...(H2 ? ['--http', '2'] : []),
      ],
      null,
    );
    const driverSampler = treeSampler(driver.child.pid, 'driver');
    await exited(driver.child);
    driverSampler.stop();
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
    const chat = report.scenarios.chatStreams;
    rows.push({
      driverWorkers: workers,
      targetWorkers: TARGET_WORKERS,
      streamsPlanned: participants * 2,
      streamsHeld: chat.peakConcurrent + chat.mainStreams.peakConcurrent,
      openFailed: chat.openFailed + chat.mainStreams.openFailed,
      dropped: chat.dropped + chat.mainStreams.dropped,
      eventsChecked: Object.values(chat.events).reduce((a, b) => a + b, 0) + Object.values(chat.mainStreams.events).reduce((a, b) => a + b, 0),
      schemaViolations: chat.schemaViolations,
      deliveries: { expected: chat.deliveriesExpected, received: chat.deliveriesReceived, missing: chat.deliveriesMissing },
      eventLatencyMs: { p50: chat.eventLatencyMs.p50, p99: chat.eventLatencyMs.p99 },
      // Gaps between KEEP_ALIVEs as the driver saw them (15 s expected): the p99 says how late the worst arrive.
      keepAliveGapMs: { count: chat.keepAliveGapMs.count, p50: chat.keepAliveGapMs.p50, p99: chat.keepAliveGapMs.p99, max: chat.keepAliveGapMs.max },
      protocols: report.transport?.protocols,
      verdict: report.verdict,
      failedChecks: report.checks.filter((c) => c.status === 'fail').map((c) => `${c.id}: ${c.detail}`),
      checksWithoutEvidence: report.checks.filter((c) => c.status === 'skip').map((c) => `${c.id}: ${c.detail}`),
      processes: [...driverSampler.summary(), ...targetSampler.summary()].map((p) => ({
        ...p,
        peakRssMiB: +(p.peakRssBytes / 2 ** 20).toFixed(1),
        cpuSeconds: +p.cpuSeconds.toFixed(1),
      })),
    });
  } finally {
    targetSampler.stop();
    await stopProcess(target.child);
  }
  console.log(JSON.stringify(rows.at(-1), null, 2));
}

// Each sizing is its own variant of the one results file, so the quick default of `npm run bench`
// never overwrites the full sizing's figures.
await writeResults(
  'workers',
  begun,
  {
    method:
      `each row: coachbench serve --workers ${TARGET_WORKERS}${H2 ? ' --http2 (h2c)' : ''} with 15 s KEEP_ALIVE, then bin/coachbench.js run --workers W${H2 ? ' --http 2' : ''} --profile <file written here> against it ` +
      `(ramp 1,000 streams/s, 200 messages/s, hold ${HOLD_SEC} s), numbers from its report.json; per process, peak VmRSS and CPU seconds (utime+stime) from /proc, sampled every second`,
    streams: STREAMS,
    rows,
  },
  H2 ? 'h2' : FULL ? 'full' : null,
);
