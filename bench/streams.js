// Benchmark (issue 3): streams held by one driver process with every event parsed and checked,
// RSS per stream next to a bare client holding the same streams, and the driver's own
// measurement error against a known injected delay. Writes bench/results/streams.json.
//
//   npm run build && node bench/streams.js [--streams 19000] [--accuracy-streams 5000] [--only capacity|accuracy]
//
// Every process here is started by this script, talks only to 127.0.0.1, and is stopped by PID.
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as hdr from 'hdr-histogram-js';
import { flag } from './lib/flags.js';
import { BIN, exited, rssBytes, startProcess, startServe, stopProcess } from './lib/processes.js';

const STREAMS = flag('streams', 19_000);
const ACCURACY_STREAMS = flag('accuracy-streams', 5_000);
const RAMP_PER_SEC = flag('ramp', 1_000);
const HOLD_SEC = flag('hold', 45);
/** `--only capacity|accuracy` re-measures one part and keeps the other from the last results. */
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const RESULTS = new URL('./results/streams.json', import.meta.url);
const dir = await mkdtemp(join(tmpdir(), 'coachbench-bench-'));

/** Samples a process's RSS every second; `at(tSec)` gives the median of samples after tSec. */
function rssSampler(pid) {
  const samples = [];
  const start = performance.now();
  const timer = setInterval(() => {
    try {
      samples.push({ t: (performance.now() - start) / 1000, rss: rssBytes(pid) });
    } catch {
      /* exited */
    }
  }, 1000);
  return {
    stop: () => clearInterval(timer),
    medianAfter: (tSec) => {
      const values = samples
        .filter((s) => s.t >= tSec)
        .map((s) => s.rss)
        .sort((a, b) => a - b);
      return values[Math.floor(values.length / 2)] ?? NaN;
    },
  };
}

async function driverRun({ url, fixtures, participants, holdSec, out, messageRate, expectKeepalive }) {
  const profile = join(dir, `profile-${participants}.json`);
  const rampSec = (participants * 2) / RAMP_PER_SEC;
  await writeFile(
    profile,
    JSON.stringify({
      name: `bench-streams-${participants}`,
      duration: `${Math.ceil(rampSec + holdSec)}s`,
      chatStreams: { participants, rampPerSec: RAMP_PER_SEC / 2, switchEvery: '0s', messageRatePerSec: messageRate, churnRatePerSec: 0, openTimeout: '30s' },
      generator: { maxEventLoopDelayP99: '100ms' },
    }),
  );
  const started = await startProcess(
    [BIN, 'run', '--profile', profile, '--target', url, '--fixtures', fixtures, '--expect-keepalive', expectKeepalive, '--out', out],
    /coachbench bench-streams/,
  );
  const baseline = rssBytes(started.child.pid);
  const sampler = rssSampler(started.child.pid);
  const code = await exited(started.child).finally(() => sampler.stop());
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
  return { code, report, baseline, holdRss: sampler.medianAfter(rampSec + 5), rampSec, out };
}

/** Event latency over the hold only (from histograms.hlog), excluding the ramp and 5 s of settling. */
async function steadyStateLatency(out, fromSec) {
  const reader = new hdr.HistogramLogReader(await readFile(join(out, 'histograms.hlog'), 'utf8'), 32, false);
  const total = hdr.build({
    bitBucketSize: 32,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 2,
    numberOfSignificantValueDigits: 3,
    autoResize: true,
    useWebAssembly: false,
  });
  for (let h = reader.nextIntervalHistogram(); h !== null; h = reader.nextIntervalHistogram()) {
    if (h.tag === 'eventLatency' && h.startTimeStampMsec / 1000 - reader.startTimeSec >= fromSec) total.add(h);
  }
  const ms = (p) => +(total.getValueAtPercentile(p) / 1000).toFixed(3);
  return { count: total.totalCount, p50: ms(50), p99: ms(99), max: +(total.maxValue / 1000).toFixed(3) };
}

async function bareRun({ url, fixtures, streams, holdSec }) {
  const started = await startProcess(
    [new URL('./bare-client.js', import.meta.url).pathname, fixtures, url, String(streams), String(RAMP_PER_SEC), String(holdSec + streams / RAMP_PER_SEC)],
    /ready/,
  );
  const baseline = rssBytes(started.child.pid);
  const sampler = rssSampler(started.child.pid);
  await exited(started.child).finally(() => sampler.stop());
  const last = /done open (\d+) frames (\d+)/.exec(started.output());
  return { baseline, holdRss: sampler.medianAfter(streams / RAMP_PER_SEC + 5), open: Number(last?.[1] ?? 0), frames: Number(last?.[2] ?? 0) };
}

const previous = ONLY ? JSON.parse(await readFile(RESULTS, 'utf8').catch(() => '{}')) : {};
const results = { ...previous, measuredAt: new Date().toISOString(), node: process.version, machine: '2 cores, 24 GiB (see /work/.library/env)', method: {} };

// 1. Capacity and memory: STREAMS streams (main + chat per participant), 15 s KEEP_ALIVE, messages flowing.
if (ONLY !== 'accuracy') {
  const participants = Math.ceil(STREAMS / 2);
  const fixtures = join(dir, 'fixtures.json');
  const target = await startServe(['--participants', String(participants), '--keepalive', '15s', '--fixtures-out', fixtures]);
  try {
    const driver = await driverRun({
      url: target.url,
      fixtures,
      participants,
      holdSec: HOLD_SEC,
      out: join(dir, 'capacity'),
      messageRate: 200,
      expectKeepalive: '15s',
    });
    const chat = driver.report.scenarios.chatStreams;
    const held = chat.peakConcurrent + chat.mainStreams.peakConcurrent;
    const bare = await bareRun({ url: target.url, fixtures, streams: held, holdSec: HOLD_SEC });
    const driverPerStream = (driver.holdRss - driver.baseline) / held;
    const barePerStream = (bare.holdRss - bare.baseline) / bare.open;
    results.capacity = {
      streamsTarget: STREAMS,
      streamsHeld: held,
      chatStreamsHeld: chat.peakConcurrent,
      mainStreamsHeld: chat.mainStreams.peakConcurrent,
      openFailed: chat.openFailed + chat.mainStreams.openFailed,
      dropped: chat.dropped + chat.mainStreams.dropped,
      eventsChecked: Object.values(chat.events).reduce((a, b) => a + b, 0) + Object.values(chat.mainStreams.events).reduce((a, b) => a + b, 0),
      schemaViolations: chat.schemaViolations,
      deliveries: { expected: chat.deliveriesExpected, received: chat.deliveriesReceived, missing: chat.deliveriesMissing },
      driverVerdict: driver.report.verdict,
      failedChecks: driver.report.checks.filter((c) => c.status === 'fail').map((c) => `${c.id}: ${c.detail}`),
      generator: driver.report.generator && {
        cpuPercent: driver.report.generator.cpuPercent,
        eventLoopDelayP99Ms: driver.report.generator.eventLoopDelayMs.p99,
        peakRssBytes: driver.report.generator.peakRssBytes,
      },
      rss: {
        driverBaselineBytes: driver.baseline,
        driverHoldBytes: driver.holdRss,
        driverKiBPerStream: +(driverPerStream / 1024).toFixed(2),
        bareBaselineBytes: bare.baseline,
        bareHoldBytes: bare.holdRss,
        bareStreamsHeld: bare.open,
        bareKiBPerStream: +(barePerStream / 1024).toFixed(2),
        ratio: +(driverPerStream / barePerStream).toFixed(3),
      },
    };
  } finally {
    await stopProcess(target.child);
  }
}

// 2. Measurement error: ACCURACY_STREAMS streams, 15 s KEEP_ALIVE, the same load without and with a
// target latency fault of 50 ms. What the driver adds beyond (50 ms + the target's own time) is its error.
async function accuracyRun(faults, label) {
  const participants = Math.ceil(ACCURACY_STREAMS / 2);
  const fixtures = join(dir, `fixtures-${label}.json`);
  const target = await startServe(['--participants', String(participants), '--keepalive', '15s', ...faults, '--fixtures-out', fixtures]);
  try {
    const driver = await driverRun({
      url: target.url,
      fixtures,
      participants,
      holdSec: HOLD_SEC,
      out: join(dir, label),
      messageRate: 100,
      expectKeepalive: '15s',
    });
    const chat = driver.report.scenarios.chatStreams;
    const latency = chat.eventLatencyMs;
    return {
      streams: chat.peakConcurrent + chat.mainStreams.peakConcurrent,
      wholeRun: { count: latency.count, min: latency.min, p50: latency.p50, p99: latency.p99, max: latency.max },
      hold: await steadyStateLatency(driver.out, driver.rampSec + 5),
      generatorEventLoopDelayP99Ms: driver.report.generator.eventLoopDelayMs.p99,
    };
  } finally {
    await stopProcess(target.child);
  }
}
if (ONLY !== 'capacity') {
  const baseline = await accuracyRun([], 'accuracy-no-fault');
  const faulted = await accuracyRun(['--fault', 'latency=50'], 'accuracy-latency-50');
  results.accuracy = {
    streams: faulted.streams,
    injectedDelayMs: 50,
    withFault: faulted,
    withoutFault: baseline,
    readingMinusInjectedP50Ms: +(faulted.hold.p50 - 50).toFixed(3),
    readingMinusInjectedP99Ms: +(faulted.hold.p99 - 50).toFixed(3),
    beyondFaultAndTargetTimeP50Ms: +(faulted.hold.p50 - 50 - baseline.hold.p50).toFixed(3),
    beyondFaultAndTargetTimeP99Ms: +(faulted.hold.p99 - 50 - baseline.hold.p99).toFixed(3),
  };
}

results.method = {
  rss: 'VmRSS from /proc/PID/status of each process, sampled every second; per-stream = (median RSS during hold - RSS at process start) / streams held',
  streams: 'each participant holds a main stream and one chat-session stream; undici Agent, eventsource-parser, every frame JSON-parsed and schema-checked',
  accuracy:
    'coachbench serve --fault latency=50 delays every event delivery by 50 ms; eventLatencyMs runs from the intended send time to arrival; "hold" sums the hlog intervals after the ramp and 5 s of settling, "wholeRun" includes the ramp; the same load without the fault gives the target\'s own time, and "beyond" subtracts it',
};
await mkdir(new URL('./results/', import.meta.url), { recursive: true });
await writeFile(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
console.log(JSON.stringify(results, null, 2));
