// Benchmark: how far the open model's latency is from the truth. One target behind nginx:
// uploads go to bench/ruler-sink.js, a photo endpoint in its own process that times itself
// (HDR-grade µs, from its request head to its answer's last byte) and answers after --delay ms;
// everything else (streams, messages, probes) goes to `coachbench serve`. nginx also logs its
// own time per upload ($request_time, ms resolution): a second ruler, one nobody here wrote.
// coachbench runs as users run it (bin/coachbench.js run, --target nginx) at --rate uploads/s,
// first with no streams (the baseline), then holding --streams checked streams (half main,
// half chat-session) opened at --ramp-per-sec. The generator's error is its latency minus the
// ruler's at p50, p99 and p99.9, over the ramp and over the steady state apart; its latencies
// per window come from the run's histograms.hlog, the ruler's from its samples by arrival time.
// Beside coachbench, bench/open-floor-client.js sends the same uploads at the same rate with
// nothing but undici and a timer: its error is the floor on this machine (Node, undici,
// loopback, nginx, the scheduler), and coachbench's error beyond it is coachbench's. With
// streams the floor client holds the same number of bare streams (parsed, unchecked) at the
// same ramp, once on its one thread and once with its uploads on a thread of their own.
// Target, ruler and nginx on CPU 0; coachbench (both its threads) and the floor client on CPU 1.
// Both clients run with --trace-gc-nvp: each row has its GC pauses per isolate (bench/lib/gc-trace.js),
// the generator's own stalls that a latency tail can be made of.
// Writes bench/results/open-error.json (`--out FILE` writes FILE instead, for a build through --bin).
//
//   node bench/open-error.js --help   (its flags, from their declaration below)
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as hdr from 'hdr-histogram-js';
import { DRIVER_SEMI_SPACE_MIB } from '../bin/young-generation.js';
import { runCoachbench } from './lib/coachbench-run.js';
import { parseFlags } from './lib/flags.js';
import { gcSummary } from './lib/gc-trace.js';
import { lastJsonLine, outFileIn, runMeasured } from './lib/measured-command.js';
import { findNginx, startNginxRouter } from './lib/nginx-router.js';
import { GENERATOR_CPU, photoBody, pinToTargetCpu } from './lib/photo-target.js';
import { BIN, benchDir, processTree, startProcess, startServe, stopProcess } from './lib/processes.js';
import { beginMeasurement, writeResults } from './lib/results.js';
import { rounder } from './lib/round.js';

const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    rate: { kind: 'number', default: 2_000, means: 'uploads per second' },
    streams: { kind: 'number', default: 5_000, means: 'checked streams held in the runs with streams (half main, half chat-session)' },
    seconds: { kind: 'number', default: 30, means: 'duration of each run' },
    'ramp-per-sec': { kind: 'number', default: 1_000, means: 'streams opened per second' },
    size: { kind: 'number', default: 2_048, means: 'bytes of the uploaded JPEG' },
    delay: { kind: 'number', default: 20, means: 'ms the ruler holds each upload before it answers' },
    repeat: { kind: 'number', default: 1, means: 'rounds of every row, one after another (floor and coachbench alternate on the same target)' },
    bin: { kind: 'text', value: 'PATH', default: BIN, means: 'the build measured: its bin/coachbench.js' },
    'no-floor': { kind: 'switch', means: "measures coachbench's rows alone (A/B pairs of builds through --bin, when the floor is known)" },
    'client-node-options': {
      kind: 'text',
      value: 'OPTIONS',
      means: "NODE_OPTIONS for both clients alone (the target, ruler and nginx keep theirs): a V8 setting to try, say '--max-semi-space-size=4'",
    },
  },
});
const RATE = flags.rate;
const STREAMS = flags.streams;
const SECONDS = flags.seconds;
const RAMP_PER_SEC = flags['ramp-per-sec'];
const SIZE = flags.size;
const DELAY_MS = flags.delay;
const REPEAT = flags.repeat;
const RUN_BIN = flags.bin;
const FLOOR = !flags['no-floor'];
const CLIENT_NODE_OPTIONS = flags['client-node-options'];
const clientEnv = CLIENT_NODE_OPTIONS ? { NODE_OPTIONS: CLIENT_NODE_OPTIONS } : {};
/** The floor client runs with the young generation `coachbench run` gives itself (bin/young-generation.js), unless both are told otherwise. */
const floorYoungGeneration = CLIENT_NODE_OPTIONS ? [] : [`--max-semi-space-size=${DRIVER_SEMI_SPACE_MIB}`];
/** Seconds after the last stream opened before the steady state is judged. */
const SETTLE_SEC = 3;
/** Each client prints V8's line per GC: pauses and promoted bytes, per isolate. */
const TRACE_GC = '--trace-gc-nvp';

const begun = beginMeasurement();
const nginx = findNginx();
if (nginx.path === null) {
  console.log(`open-error: skipped: ${nginx.reason}`);
  process.exit(0);
}
const dir = await benchDir('open-error');
const round = rounder(3);

const participants = Math.max(1, Math.ceil(STREAMS / 2));
const fixturesPath = join(dir, 'fixtures.json');
const serve = await startServe(['--participants', String(participants), '--keepalive', '15s', '--fixtures-out', fixturesPath]);
const ruler = await startProcess([new URL('./ruler-sink.js', import.meta.url).pathname, '--delay', String(DELAY_MS)], /ruler: (http:\/\/\S+)/);
const router = await startNginxRouter(dir, nginx.path, { serveUrl: serve.url, rulerUrl: ruler.match[1] });
for (const pid of [serve.child.pid, ruler.child.pid, ...processTree(router.pid)]) pinToTargetCpu(pid);

/** Percentiles (ms) of values already in ms. */
function percentilesOf(valuesMs) {
  if (valuesMs.length === 0) return null;
  const sorted = Float64Array.from(valuesMs).sort();
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return { count: sorted.length, p50: round(at(50)), p99: round(at(99)), p999: round(at(99.9)) };
}

/** photoLatency intervals of a run's histograms.hlog: { startSec, endSec, histogram } (µs). */
async function hlogIntervals(outDir) {
  const text = await readFile(join(outDir, 'histograms.hlog'), 'utf8');
  const startEpochSec = Number(/StartTime: ([\d.]+)/.exec(text)[1]);
  const intervals = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('Tag=photoLatency,')) continue;
    const [, start, length, , base64] = line.split(',');
    intervals.push({ startSec: Number(start), endSec: Number(start) + Number(length), histogram: hdr.decodeFromCompressedBase64(base64) });
  }
  return { startEpochMs: startEpochSec * 1_000, intervals };
}

/** coachbench's own percentiles (ms) over the intervals that start inside [fromSec, toSec). */
function clientPercentiles(intervals, fromSec, toSec) {
  const total = hdr.build();
  for (const interval of intervals) if (interval.startSec >= fromSec - 0.05 && interval.startSec < toSec - 0.05) total.add(interval.histogram);
  if (total.totalCount === 0) return null;
  const ms = (p) => round(total.getValueAtPercentile(p) / 1_000);
  return { count: total.totalCount, p50: ms(50), p99: ms(99), p999: ms(99.9) };
}

const minus = (a, b) => (a === null || b === null ? null : { p50: round(a.p50 - b.p50), p99: round(a.p99 - b.p99), p999: round(a.p999 - b.p999) });

/**
 * The windows judged apart, in seconds from the clock's zero: the ramp while streams open (and
 * the ramp after its first second, when both clients run cold code at the full rate), then the
 * steady state.
 */
function windowsFor(streams) {
  if (streams === 0) return { firstSecond: [0, 1], steady: [SETTLE_SEC, SECONDS - 1] };
  const rampSec = Math.ceil(streams / RAMP_PER_SEC);
  return { firstSecond: [0, 1], ramp: [0, rampSec], rampAfterFirstSecond: [1, rampSec], steady: [rampSec + SETTLE_SEC, SECONDS - 1] };
}

async function measure(streams) {
  const profile = {
    name: `open-error-${streams}-streams`,
    duration: `${SECONDS}s`,
    keepAliveTolerance: '10%',
    target: { keepAlive: '15s', participants },
    chatStreams:
      streams > 0
        ? { participants: streams / 2, rampPerSec: RAMP_PER_SEC / 2, switchEvery: '10m', messageRatePerSec: 5, churnRatePerSec: 0 }
        : { enabled: false },
    photoUpload: { enabled: true, model: 'open', ratePerSec: RATE, maxInFlight: 2_048, formats: ['jpeg'], imageSizes: [SIZE], overrideShare: 0 },
    tagLink: { enabled: false },
  };
  const run = await runCoachbench({
    dir,
    profile,
    targetUrl: router.url,
    fixturesPath,
    cpu: GENERATOR_CPU,
    bin: RUN_BIN,
    nodeArgs: [TRACE_GC],
    env: clientEnv,
  });
  const { startEpochMs, intervals } = await hlogIntervals(run.outDir);
  const rulerSamples = await (await fetch(`${ruler.match[1]}/ruler/samples`)).json();
  const nginxSamples = (await router.samples()).map(([endMs, ms]) => [endMs - ms, ms]);
  const inWindow = (samples, fromSec, toSec) =>
    samples.filter(([arrivalMs]) => arrivalMs >= startEpochMs + fromSec * 1_000 && arrivalMs < startEpochMs + toSec * 1_000);
  const byWindow = {};
  for (const [name, [fromSec, toSec]] of Object.entries(windowsFor(streams))) {
    const client = clientPercentiles(intervals, fromSec, toSec);
    const rulerMs = percentilesOf(inWindow(rulerSamples, fromSec, toSec).map(([, us]) => us / 1_000));
    const nginxMs = percentilesOf(inWindow(nginxSamples, fromSec, toSec).map(([, ms]) => ms));
    byWindow[name] = {
      fromSec,
      toSec,
      coachbenchMs: client,
      rulerMs,
      nginxMs,
      errorVsRulerMs: minus(client, rulerMs),
      errorVsNginxMs: minus(client, nginxMs),
    };
  }
  const photo = run.report.scenarios.photoUpload;
  const generator = run.report.generator;
  const row = {
    client: 'coachbench',
    streams,
    streamsOpenAtEnd: (run.report.scenarios.chatStreams?.peakConcurrent ?? 0) + (run.report.scenarios.chatStreams?.mainStreams?.peakConcurrent ?? 0),
    requests: photo.requests,
    errors: photo.errors,
    lateSlots: photo.lateSlots,
    droppedSlots: photo.droppedSlots,
    eventLoopDelayP99Ms: generator.eventLoopDelayMs.p99,
    requestThreadLoopDelayP99Ms: generator.requestLoopDelayMs?.p99 ?? null,
    generatorBehind: generator.behind ?? null,
    generatorHealthy: run.report.checks.find((check) => check.id === 'generator.healthy')?.status,
    processCpuSeconds: round(run.cpuSeconds, 2),
    gc: gcSummary(run.output),
    ...byWindow,
  };
  console.log(JSON.stringify(row));
  return row;
}

/**
 * The floor: bench/open-floor-client.js at the same rate and body, holding `streams` bare
 * streams opened at the same ramp (on one thread, or with the uploads on a thread of their own).
 */
async function measureFloor(streams, threads) {
  const fixtures = JSON.parse(await readFile(fixturesPath, 'utf8'));
  const participant = fixtures.participants[0];
  const body = await photoBody(dir, SIZE);
  const headers = {
    authorization: `Bearer ${participant.token}`,
    'x-api-key': fixtures.apiKey,
    accept: 'application/json, application/problem+json',
    'content-type': body.body.contentType,
  };
  const samplesPath = join(dir, 'floor-samples.json');
  const client = new URL('./open-floor-client.js', import.meta.url).pathname;
  const path = `/api/v1/participants/${participant.userId}/profile_photo`;
  const streamEnv =
    streams > 0 ? { CB_STREAMS: String(streams), CB_STREAM_RAMP: String(RAMP_PER_SEC), CB_FIXTURES: fixturesPath, CB_THREADS: String(threads) } : {};
  const run = await runMeasured(
    process.execPath,
    [TRACE_GC, ...floorYoungGeneration, client, router.url, path, String(RATE), String(SECONDS), body.bodyPath, samplesPath],
    {
      env: { ...clientEnv, ...streamEnv, CB_HEADERS: JSON.stringify(headers) },
      cpu: GENERATOR_CPU,
      outFile: outFileIn(dir, 'open-floor'),
    },
  );
  if (run.code !== 0) throw new Error(`open-floor-client.js exited ${run.code}:\n${run.output}`);
  const summary = JSON.parse(lastJsonLine(run.output));
  const samples = JSON.parse(await readFile(samplesPath, 'utf8'));
  const rulerSamples = await (await fetch(`${ruler.match[1]}/ruler/samples`)).json();
  // nginx's $request_time by arrival, as for coachbench's rows (its log holds every run so far; the window picks this one's).
  const nginxSamples = (await router.samples()).map(([endMs, ms]) => [endMs - ms, ms]);
  const within = (list, fromSec, toSec) =>
    list.filter(([atMs]) => atMs >= summary.startEpochMs + fromSec * 1_000 && atMs < summary.startEpochMs + toSec * 1_000);
  const byWindow = {};
  // Binned by completion, as coachbench's histograms.hlog bins its answers: a late slot counts
  // in the window its answer came back in, for both clients alike.
  const completed = samples.map(([intendedMs, ms]) => [intendedMs + ms, ms]);
  for (const [name, [fromSec, toSec]] of Object.entries(windowsFor(streams))) {
    const floorMs = percentilesOf(within(completed, fromSec, toSec).map(([, ms]) => ms));
    const rulerMs = percentilesOf(within(rulerSamples, fromSec, toSec).map(([, us]) => us / 1_000));
    const nginxMs = percentilesOf(within(nginxSamples, fromSec, toSec).map(([, ms]) => ms));
    byWindow[name] = { fromSec, toSec, floorMs, rulerMs, nginxMs, errorVsRulerMs: minus(floorMs, rulerMs), errorVsNginxMs: minus(floorMs, nginxMs) };
  }
  const row = {
    client: 'floor',
    streams,
    threads: streams > 0 ? threads : 1,
    ...summary,
    processCpuSeconds: round(run.cpuSeconds, 2),
    gc: gcSummary(run.output),
    ...byWindow,
  };
  console.log(JSON.stringify(row));
  return row;
}

const rows = [];
try {
  for (let repetition = 1; repetition <= REPEAT; repetition++) {
    if (FLOOR) rows.push({ repetition, ...(await measureFloor(0, 1)) });
    if (FLOOR && STREAMS > 0) for (const threads of [1, 2]) rows.push({ repetition, ...(await measureFloor(STREAMS, threads)) });
    for (const streams of new Set([0, STREAMS])) rows.push({ repetition, ...(await measure(streams)) });
  }
} finally {
  await router.stop();
  await stopProcess(ruler.child);
  await stopProcess(serve.child);
}

await writeResults('open-error', begun, {
  goal: "client-side latency minus the ruler's own time <= 1 ms at p50 and p99, at 2,000 uploads/s with 5,000 checked streams held in parallel (and without streams, the baseline)",
  method: {
    target: `nginx ${nginx.path} (1 worker) routes PATCH .../profile_photo to bench/ruler-sink.js (answers after ${DELAY_MS} ms, times itself per upload) and the rest to coachbench serve (${participants} participants, KEEP_ALIVE 15 s); all on CPU 0`,
    coachbench: `${RUN_BIN === BIN ? 'this checkout' : RUN_BIN}: bin/coachbench.js run --target <nginx>, open model ${RATE} uploads/s of one ${SIZE}-byte JPEG, ${SECONDS} s, on CPU 1 (taskset, every thread); with streams: ${STREAMS} streams opened at ${RAMP_PER_SEC}/s${CLIENT_NODE_OPTIONS ? `; both clients with NODE_OPTIONS=${CLIENT_NODE_OPTIONS}` : ''}`,
    windows: `firstSecond: the first second of load (cold code in every client); ramp: from the start to the last stream open; rampAfterFirstSecond: the ramp without its first second; steady: ${SETTLE_SEC} s after the last stream open to 1 s before the end (without streams: ${SETTLE_SEC} s to 1 s before the end)`,
    coachbenchLatency:
      "from the run's histograms.hlog (photoLatency, interval histograms summed over the window): latency from each slot's intended start (coordinated-omission corrected)",
    rulerLatency:
      "the sink's own time per upload, from its request head parsed to its answer finished, by arrival time; nginx: $request_time (ms resolution) by arrival (its $msec minus $request_time)",
    floorWindows: "the floor's latencies binned by when each answer completed (due time + latency), as coachbench's hlog intervals are",
    floor: `bench/open-floor-client.js on the generator's CPU, before coachbench's runs in each round: the same ${SIZE}-byte upload at ${RATE}/s for ${SECONDS} s with undici request() on a 512-connection Pool and a timer per due slot, latency from the intended start, nothing else; with streams it also holds ${STREAMS} bare streams (undici + eventsource-parser parsing every frame, bench/lib/bare-streams.js) opened at ${RAMP_PER_SEC}/s, on its one thread (threads: 1) or with the uploads on a worker thread (threads: 2, as coachbench's request thread); node ${floorYoungGeneration.join(' ') || `with NODE_OPTIONS=${CLIENT_NODE_OPTIONS}`}`,
    error:
      "coachbench minus ruler at each percentile: what the generator, the loopback and nginx add (nginx's hop is included in the ruler error, not in the nginx error)",
  },
  ratePerSec: RATE,
  streams: STREAMS,
  imageBytes: SIZE,
  delayMs: DELAY_MS,
  rows,
});
