// Benchmark: streams held by one `coachbench run` process (bin/coachbench.js with a profile
// written here) with every event parsed and checked, its RSS per stream next to the ruler,
// bench/bare-client.js holding the same streams, and the driver's own measurement error against
// a known injected delay. Writes bench/results/streams.json (`--out FILE` writes FILE instead).
//
//   node bench/streams.js --help   (its flags, from their declaration below)
//
// `--h2` measures the capacity part over h2c instead (38,000 streams, 19,000 participants,
// unless --streams says otherwise): `serve --http2`, the driver with `--http 2` (one connection
// per participant for both its streams), the bare client likewise; it writes the `h2` variant
// of bench/results/streams.json.
//
// `--tls` measures the capacity part over HTTPS/1.1 instead (10,000 streams unless --streams
// says otherwise): `serve --tls self-signed`, the driver with `--ca`, the bare client trusting the
// same certificate; it writes the `tls` variant of bench/results/streams.json.
//
// By default 5,000 streams and a 30 s hold (about 2 minutes in all); `--full` holds the 19,000
// streams one process is sized for, 45 s, and 5,000 streams for the accuracy runs, and writes
// the `full` variant. A variant replaces only its own entry under the file's `variants`.
// Every process here is started by this script, talks only to 127.0.0.1, and is stopped by PID.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as hdr from 'hdr-histogram-js';
import { parseFlags } from './lib/flags.js';
import { BIN, benchDir, exited, rssBytes, startProcess, startServe, stopProcess } from './lib/processes.js';
import { beginMeasurement, readResults, writeResults } from './lib/results.js';

const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    full: { kind: 'switch', means: 'the sizing run: 19,000 streams held 45 s, 5,000 in the accuracy runs (the `full` variant)' },
    tls: { kind: 'switch', means: 'the capacity part over HTTPS/1.1 (the `tls` variant)' },
    h2: { kind: 'switch', means: 'the capacity part over h2c (the `h2` variant)' },
    streams: {
      kind: 'number',
      default: ({ h2, tls, full }) => (h2 ? 38_000 : tls ? 10_000 : full ? 19_000 : 5_000),
      means: 'streams held in the capacity part',
    },
    'accuracy-streams': { kind: 'number', default: ({ full }) => (full ? 5_000 : 2_000), means: 'streams held in the accuracy runs' },
    ramp: { kind: 'number', default: 1_000, means: 'streams opened per second' },
    // The capacity hold gives the first streams two 15 s KEEP_ALIVE gaps (cadence evidence); the
    // accuracy runs need only enough messages after the ramp.
    hold: { kind: 'number', default: ({ full }) => (full ? 45 : 30), means: 'seconds the capacity part holds its streams after the ramp' },
    'accuracy-hold': { kind: 'number', default: ({ full }) => (full ? 45 : 20), means: 'seconds the accuracy runs hold theirs' },
    only: {
      kind: 'text',
      choices: ['capacity', 'accuracy'],
      means: 're-measures one part and carries the other over from the last results; --tls and --h2 measure capacity alone',
    },
  },
});
const FULL = flags.full;
const TLS = flags.tls;
const H2 = flags.h2;
const STREAMS = flags.streams;
const ACCURACY_STREAMS = flags['accuracy-streams'];
const RAMP_PER_SEC = flags.ramp;
const HOLD_SEC = flags.hold;
const ACCURACY_HOLD_SEC = flags['accuracy-hold'];
const ONLY = TLS || H2 ? 'capacity' : flags.only;
// Each sizing is its own variant of the one results file, so the quick default of `npm run bench`
// never overwrites the full sizing's figures.
const VARIANT = H2 ? 'h2' : TLS ? 'tls' : FULL ? 'full' : null;
const begun = beginMeasurement();
const dir = await benchDir('streams');

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

async function driverRun({ url, fixtures, participants, holdSec, out, messageRate, expectKeepalive, ca }) {
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
    [
      BIN,
      'run',
      '--profile',
      profile,
      '--target',
      url,
      '--fixtures',
      fixtures,
      '--expect-keepalive',
      expectKeepalive,
      '--out',
      out,
      ...(ca ? ['--ca', ca] : []),
      ...(H2 ? ['--http', '2'] : []),
    ],
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

async function bareRun({ url, fixtures, streams, holdSec, ca }) {
  const started = await startProcess(
    [
      new URL('./bare-client.js', import.meta.url).pathname,
      fixtures,
      url,
      String(streams),
      String(RAMP_PER_SEC),
      String(holdSec + streams / RAMP_PER_SEC),
      ...(ca ? [ca] : []),
    ],
    /ready/,
    H2 ? { BARE_HTTP2: '1' } : {},
  );
  const baseline = rssBytes(started.child.pid);
  const sampler = rssSampler(started.child.pid);
  await exited(started.child).finally(() => sampler.stop());
  const last = /done open (\d+) frames (\d+)/.exec(started.output());
  return { baseline, holdRss: sampler.medianAfter(streams / RAMP_PER_SEC + 5), open: Number(last?.[1] ?? 0), frames: Number(last?.[2] ?? 0) };
}

const previous = (ONLY && (await readResults('streams', VARIANT))) || {};
// A part carried over keeps the record of the run that measured it.
const carried = (part) => previous[part] && { ...previous[part], measuredWith: previous[part].measuredWith ?? previous.measuredWith };
const results = { capacity: carried('capacity'), accuracy: carried('accuracy') };

// 1. Capacity and memory: STREAMS streams (main + chat per participant), 15 s KEEP_ALIVE, messages flowing.
if (ONLY !== 'accuracy') {
  const participants = Math.ceil(STREAMS / 2);
  const fixtures = join(dir, 'fixtures.json');
  const ca = TLS ? join(dir, 'ca.pem') : undefined;
  const tlsArgs = [...(ca ? ['--tls', 'self-signed', '--tls-cert-out', ca] : []), ...(H2 ? ['--http2'] : [])];
  const target = await startServe(['--participants', String(participants), '--keepalive', '15s', '--fixtures-out', fixtures, ...tlsArgs]);
  try {
    const driver = await driverRun({
      ca,
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
    const bare = await bareRun({ url: target.url, fixtures, streams: held, holdSec: HOLD_SEC, ca });
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
      checksWithoutEvidence: driver.report.checks.filter((c) => c.status === 'skip').map((c) => `${c.id}: ${c.detail}`),
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
      holdSec: ACCURACY_HOLD_SEC,
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
  const faulted = await accuracyRun(['--fault', 'latency=50ms'], 'accuracy-latency-50');
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

const method = {
  command:
    'each driver is bin/coachbench.js run --profile <file written here> --target <serve URL> --fixtures <its fixtures> --expect-keepalive 15s --out <dir>; numbers from its report.json and histograms.hlog',
  ruler: 'bench/bare-client.js: undici request() + eventsource-parser holding the same streams and parsing every frame, nothing else',
  rss: 'VmRSS from /proc/PID/status of each process, sampled every second; per-stream = (median RSS during hold - RSS at process start) / streams held',
  streams: 'each participant holds a main stream and one chat-session stream; undici Agent, eventsource-parser, every frame JSON-parsed and schema-checked',
  transport: TLS
    ? 'HTTPS/1.1: coachbench serve --tls self-signed (P-256); the driver with --ca, the bare client with the same certificate as its CA; one TLS connection per stream in both'
    : 'plain HTTP/1.1 on loopback',
  accuracy:
    'coachbench serve --fault latency=50ms delays every event delivery by 50 ms; eventLatencyMs runs from the intended send time to arrival; "hold" sums the hlog intervals after the ramp and 5 s of settling, "wholeRun" includes the ramp; the same load without the fault gives the target\'s own time, and "beyond" subtracts it',
};
const streams = {
  method,
  streamsTarget: STREAMS,
  accuracyStreams: ACCURACY_STREAMS,
  holdSeconds: HOLD_SEC,
  accuracyHoldSeconds: ACCURACY_HOLD_SEC,
  ...results,
};
await writeResults('streams', begun, streams, VARIANT);
console.log(JSON.stringify(streams, null, 2));
