// Benchmark: coachbench side by side with the load generators users would pick instead, on the
// three workloads of issue 30, each tool run as its users run it (coachbench through
// bin/coachbench.js run) against the same target with the same path, token and image:
//
//   closed: 16 connections, 16 KiB multipart uploads, --seconds (10) against `coachbench serve`:
//           coachbench (closed model), wrk, h2load, hey, autocannon's CLI, Locust, Artillery,
//           and two floors: bench/node-floor-client.js, raw sockets with no HTTP parser, and
//           bench/checked-floor-client.js, autocannon's engine with coachbench's checks of
//           every answer (checkedFloor);
//   open:   --rates (500,2000) uploads/s of 2 KiB for --seconds against `serve --fault latency=20ms`
//           behind nginx, whose $request_time per upload is the ruler: each tool's p50/p99
//           minus nginx's over the same run: coachbench (open model), h2load (--rps),
//           hey (-q), autocannon's CLI (-R, and -R -C), Locust (constant_throughput), Artillery
//           (arrivalRate), and the floor: bench/open-floor-client.js, a bare undici open loop;
//           wrk has no open model (wrk2 is not packaged). Every tool also runs at --base-rate
//           (50/s): its marginal CPU per request is the difference of CPU over the difference
//           of requests between a rate and the base rate (start-up cancels out);
//   latency: bench/open-error.js at --rate-error (500) uploads/s for --error-seconds (40), with
//           0 and --error-streams (5,000) checked streams, coachbench and its floor (the bare
//           undici loop, also holding the same streams) behind nginx, --reps rounds (one
//           window is one draw of where the garbage collector falls): steady-state p50/p99
//           minus nginx's $request_time, folded into peers.json, medians per client;
//   streams: --streams (5,000, the count issue 30 states its goal at) SSE streams held
//           --stream-seconds (30) after the ramp:
//           coachbench (every frame parsed and checked) against bench/bare-client.js (undici +
//           eventsource-parser, nothing else); peak RSS (VmHWM, GNU time) and CPU per stream-second.
//
// Every tool's CPU is utime+stime of its process tree from /proc (bench/lib/measured-command.js);
// CPU per request divides the whole process's CPU (start-up included) by the requests it counted.
// The generator runs on CPU 0 and the target (and nginx) on CPU 1 with taskset (`--no-pin`
// leaves placement to the scheduler). Tools take turns in a rotating order within each
// repetition (--reps, 3), and the tables give the median per tool. A peer that is missing is
// installed when possible (apt-get as root; Artillery with npm --ignore-scripts into a temporary
// prefix, never into package.json) and otherwise reported missing, never faked.
// Writes bench/results/peers.json and the table between <!-- peers:start --> and
// <!-- peers:end --> in docs/benchmarks.md. Loopback only; everything started here is stopped by PID.
//
// peers.json's `goals` judges issue 30's goals from the medians (a CPU ratio of two tools from
// the median of each repetition's ratio), each with its ratio and, where one applies, the floor
// beside it.
//
//   node bench/peers.js --help   (its flags, from their declaration below)
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DRIVER_SEMI_SPACE_MIB } from '../bin/young-generation.js';
import { photoProfile, runCoachbench } from './lib/coachbench-run.js';
import { parseFlags } from './lib/flags.js';
import { outFileIn, runMeasured } from './lib/measured-command.js';
import { findNginx, startNginxRouter } from './lib/nginx-router.js';
import { artillery, autocannon, findPeers, floorClient, h2load, hey, locust, percentiles, uploadRequest } from './lib/peer-tools.js';
import { marginal, medians, summarise } from './lib/peers-summary.js';
import { writePeersTable } from './lib/peers-table.js';
import { PINNED, photoBody, startPhotoTarget } from './lib/photo-target.js';
import { BIN, benchDir, processTree, startServe, stopProcess } from './lib/processes.js';
import { beginMeasurement, loadavg1, writeResults, writesLatestResults } from './lib/results.js';
import { rounder } from './lib/round.js';
import { nodeClient, wrk } from './lib/rulers.js';

const TOOL_NAMES = ['coachbench', 'floor', 'checkedFloor', 'wrk', 'h2load', 'hey', 'autocannon', 'autocannonC', 'locust', 'artillery'];
const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    reps: { kind: 'number', default: 3, means: 'repetitions; the tools take turns in a rotating order within each' },
    seconds: { kind: 'number', default: 10, means: 'duration of each closed and open run' },
    'stream-seconds': { kind: 'number', default: 30, means: 'seconds the streams are held after the ramp' },
    streams: { kind: 'number', default: 5_000, means: "SSE streams held in the streams workload (issue 30's goal is stated at 5,000)" },
    rates: { kind: 'numbers', default: [500, 2_000], means: 'uploads per second of the open workload' },
    'base-rate': { kind: 'number', default: 50, means: 'the low rate every open-model tool also runs at, for its marginal CPU per request' },
    only: {
      kind: 'texts',
      default: ['closed', 'open', 'latency', 'streams'],
      choices: ['closed', 'open', 'latency', 'streams'],
      means: 'the workloads measured',
    },
    tools: { kind: 'texts', choices: TOOL_NAMES, means: 'only these tools run, the others listed as not run; every installed one when not given' },
    'rate-error': { kind: 'number', default: 500, means: 'uploads per second of the latency workload (bench/open-error.js)' },
    'error-streams': { kind: 'number', default: 5_000, means: 'checked streams held in the latency workload' },
    'error-seconds': {
      kind: 'number',
      default: 40,
      means: 'duration of each latency run; its steady window should hold a whole mark-compact cycle of every client',
    },
    note: { kind: 'text', means: "the conditions the numbers cannot show ('machine shared with ...'), kept in measuredWith" },
    'table-only': { kind: 'switch', means: 'rewrites the docs table from bench/results/peers.json; nothing is measured' },
  },
});

if (flags['table-only']) {
  // Derives the medians, marginals and goals again from the last results' rows and rewrites the
  // JSON (its measuredWith kept) and the table; nothing is measured.
  const file = new URL('./results/peers.json', import.meta.url);
  const results = summarise(JSON.parse(await readFile(file, 'utf8')));
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  await writePeersTable(results);
  process.exit(0);
}

const REPS = flags.reps;
const SECONDS = flags.seconds;
const STREAM_SECONDS = flags['stream-seconds'];
const STREAMS = flags.streams;
const RATES = flags.rates;
const BASE_RATE = flags['base-rate'];
const ERROR_RATE = flags['rate-error'];
const ERROR_STREAMS = flags['error-streams'];
const ERROR_SECONDS = flags['error-seconds'];
const ONLY = flags.only;
const TOOLS = flags.tools;
const chosen = (tool) => TOOLS === null || TOOLS.includes(tool);
const notRun = (tools) => Object.fromEntries(tools.filter((tool) => !chosen(tool)).map((tool) => [tool, 'not run in this measurement (--tools)']));
const CONNECTIONS = 16;
const CLOSED_BYTES = 16_384;
const OPEN_BYTES = 2_048;
const DELAY_MS = 20;
/** Connections (users, workers) of the paced peers in the open workload, at least: each sends rate / this per second. */
const OPEN_CLIENTS = 25;
/** Most uploads a second one paced connection is asked for: 25/s keeps each under half busy at 20 ms. */
const PER_CLIENT_RATE = 25;
const openClients = (rate) => Math.max(OPEN_CLIENTS, Math.ceil(rate / PER_CLIENT_RATE));
/** The floor client runs with the young generation `coachbench run` gives itself (src/cli/young-generation.ts). */
const FLOOR_NODE_ARGS = [`--max-semi-space-size=${DRIVER_SEMI_SPACE_MIB}`, `--min-semi-space-size=${DRIVER_SEMI_SPACE_MIB}`];
const STREAM_RAMP_PER_SEC = 1_000;
const GENERATOR_CPU = PINNED && cpus().length > 1 ? '0' : null;
const TARGET_CPU = '1';

const begun = beginMeasurement();
begun.note = flags.note;
const dir = await benchDir('peers');
const round = rounder(1);

function pinTarget(pid) {
  if (GENERATOR_CPU === null) return;
  const result = spawnSync('taskset', ['-a', '-pc', TARGET_CPU, String(pid)], { encoding: 'utf8' });
  if (result.status !== 0) console.warn(`taskset failed for ${pid}: ${result.stderr || result.error}`);
}

// Only the closed and open workloads run the peers: the latency and streams workloads compare
// coachbench with its own floors, and need no peer looked for (or installed).
const runsPeers = ONLY.includes('closed') || ONLY.includes('open');
const peers = findPeers((tool) => runsPeers && chosen(tool), runsPeers ? undefined : 'no workload of this measurement runs the peers (--only)');
for (const peer of Object.values(peers).filter((peer) => runsPeers && chosen(peer.name)))
  console.log(`${peer.name}: ${peer.version ?? `missing (${peer.reason})`}`);
const nginx = findNginx();

/** The figures of a coachbench photo run, in the peers' row shape. */
function coachbenchRow(result) {
  const photo = result.report.scenarios.photoUpload;
  return {
    requests: photo.requests,
    errors: photo.errors,
    perSec: round(photo.throughputPerSec),
    p50Ms: photo.latencyMs.p50,
    p99Ms: photo.latencyMs.p99,
    cpuUsPerRequest: photo.requests > 0 ? round((result.cpuSeconds * 1e6) / photo.requests) : null,
    processCpuSeconds: round(result.cpuSeconds, 2),
    processWallSeconds: round(result.wallSeconds, 2),
    ...(photo.model === 'open' ? { requestedRatePerSec: photo.requestedRatePerSec, droppedSlots: photo.droppedSlots, lateSlots: photo.lateSlots } : {}),
    generatorHealthy: result.report.checks.find((check) => check.id === 'generator.healthy')?.status,
  };
}

/** Runs every tool REPS times, the order rotating each repetition; rows keep their repetition. */
async function rotate(allTools, measure) {
  const tools = allTools.filter(([tool]) => chosen(tool));
  const rows = [];
  for (let rep = 0; rep < REPS; rep++) {
    for (let i = 0; i < tools.length; i++) {
      const [tool, run] = tools[(i + rep) % tools.length];
      const loadavgBefore = loadavg1();
      try {
        const row = { tool, repetition: rep + 1, loadavgBefore, ...(await measure(run)) };
        console.log(JSON.stringify(row));
        rows.push(row);
      } catch (error) {
        console.log(`${tool}: failed: ${error.message.split('\n')[0]}`);
        rows.push({ tool, repetition: rep + 1, loadavgBefore, failed: error.message.slice(0, 2_000) });
      }
    }
  }
  return rows;
}

const peerTools = (names, make) => names.filter((name) => peers[name].version !== null).map((name) => [name, make(name)]);
const missing = (names) => Object.fromEntries(names.filter((name) => chosen(name) && peers[name].version === null).map((name) => [name, peers[name].reason]));
const RUNNERS = { h2load, hey, autocannon, locust, artillery };

async function closedWorkload() {
  const target = await startPhotoTarget(dir);
  pinTarget(target.pid);
  const body = await photoBody(dir, CLOSED_BYTES);
  const request = uploadRequest(target.url, target.fixtures, body);
  const common = { dir, request, connections: CONNECTIONS, seconds: SECONDS, cpu: GENERATOR_CPU };
  // For the tools that build their request themselves from the target, its fixtures and the body.
  const ownRequest = { dir, url: target.url, fixtures: target.fixtures, body, connections: CONNECTIONS, seconds: SECONDS, cpu: GENERATOR_CPU };
  const names = ['wrk', 'h2load', 'hey', 'autocannon', 'locust', 'artillery'].filter((name) => name === 'autocannon' || peers[name]);
  const tools = [
    [
      'coachbench',
      async () =>
        coachbenchRow(
          await runCoachbench({
            dir,
            profile: photoProfile('peers-closed', SECONDS, CLOSED_BYTES, { model: 'closed', connections: CONNECTIONS }),
            targetUrl: target.url,
            fixturesPath: target.fixturesPath,
            cpu: GENERATOR_CPU,
          }),
        ),
    ],
    ...peerTools(
      names.filter((name) => name !== 'autocannon'),
      (name) => () => (name === 'wrk' ? wrk(ownRequest) : RUNNERS[name](common)),
    ),
    ['autocannon', () => autocannon(common)],
    // The least a Node.js closed loop does per request (a write, a read, a Content-Length found):
    // what stands between it and autocannon's CLI is an HTTP parser and a client around it.
    ['floor', () => nodeClient('node-floor-client.js', ownRequest)],
    // What autocannon's engine costs when every answer is judged as coachbench judges it: the
    // part of coachbench's CPU beyond autocannon's CLI that the checks account for.
    ['checkedFloor', () => nodeClient('checked-floor-client.js', ownRequest)],
  ];
  try {
    const rows = await rotate(tools, (run) => run());
    return {
      rows,
      medians: medians(rows),
      missing: missing(names.filter((name) => name !== 'autocannon')),
      notRun: notRun(['coachbench', ...names, 'floor', 'checkedFloor']),
    };
  } finally {
    await target.stop();
  }
}

/** The open workload's tools at `rate`: coachbench, the floor, and each installed peer. */
function openTools(target, router, body, rate) {
  const request = uploadRequest(router.url, target.fixtures, body);
  const common = { dir, request, connections: openClients(rate), seconds: SECONDS, cpu: GENERATOR_CPU, ratePerSec: rate };
  const names = ['h2load', 'hey', 'locust', 'artillery'];
  return [
    [
      'coachbench',
      async () =>
        coachbenchRow(
          await runCoachbench({
            dir,
            profile: photoProfile(`peers-open-${rate}`, SECONDS, OPEN_BYTES, { model: 'open', ratePerSec: rate }),
            targetUrl: router.url,
            fixturesPath: target.fixturesPath,
            cpu: GENERATOR_CPU,
          }),
        ),
    ],
    ['floor', () => floorClient({ ...common, nodeArgs: FLOOR_NODE_ARGS })],
    ...peerTools(names, (name) => () => RUNNERS[name](common)),
    ['autocannon', () => autocannon(common)],
    ['autocannonC', () => autocannon({ ...common, ignoreCoordinatedOmission: true })],
  ];
}

async function openWorkload() {
  if (nginx.path === null) return { skipped: nginx.reason };
  const target = await startPhotoTarget(dir, [`latency=${DELAY_MS}ms`]);
  const router = await startNginxRouter(dir, nginx.path, { serveUrl: target.url, rulerUrl: target.url });
  for (const pid of [target.pid, ...processTree(router.pid)]) pinTarget(pid);
  const body = await photoBody(dir, OPEN_BYTES);
  const names = ['h2load', 'hey', 'locust', 'artillery'];
  const byRate = {};
  try {
    for (const rate of [BASE_RATE, ...RATES]) {
      console.log(`open model at ${rate}/s`);
      const rows = await rotate(openTools(target, router, body, rate), async (run) => {
        const before = (await router.samples()).length;
        const row = await run();
        const ruler = percentiles((await router.samples()).slice(before).map(([, ms]) => ms));
        return {
          ...row,
          nginxP50Ms: ruler.p50Ms,
          nginxP99Ms: ruler.p99Ms,
          errorP50Ms: row.p50Ms === null || ruler.p50Ms === null ? null : round(row.p50Ms - ruler.p50Ms, 3),
          errorP99Ms: row.p99Ms === null || ruler.p99Ms === null ? null : round(row.p99Ms - ruler.p99Ms, 3),
        };
      });
      byRate[rate] = { ratePerSec: rate, connections: openClients(rate), rows, medians: medians(rows) };
    }
    const marginalUsPerRequest = Object.fromEntries(RATES.map((rate) => [rate, marginal(byRate[rate], byRate[BASE_RATE])]));
    return {
      baseRatePerSec: BASE_RATE,
      rates: RATES,
      byRate,
      marginalUsPerRequest,
      missing: missing(names),
      notApplicable: { wrk: 'no open model (wrk2 is not packaged)' },
      notRun: notRun(['coachbench', 'floor', ...names, 'autocannon', 'autocannonC']),
    };
  } finally {
    await router.stop();
    await target.stop();
  }
}

/**
 * The latency error at ERROR_RATE with 0 and ERROR_STREAMS checked streams: bench/open-error.js
 * in its own process (its layout: a sink that times itself behind nginx, coachbench serve for
 * the streams), its rows read back and summarised by the steady-state window.
 */
async function latencyWorkload() {
  if (nginx.path === null) return { skipped: nginx.reason };
  // open-error.js's own record stays out of bench/results/ (one file per benchmark): the rows
  // this table needs are summarised into peers.json below.
  const outFile = join(await mkdtemp(join(tmpdir(), 'coachbench-peers-error-')), 'open-error.json');
  const args = [
    new URL('./open-error.js', import.meta.url).pathname,
    '--rate',
    String(ERROR_RATE),
    '--streams',
    String(ERROR_STREAMS),
    '--seconds',
    String(ERROR_SECONDS),
    '--repeat',
    String(REPS),
    '--out',
    outFile,
    ...(PINNED ? [] : ['--no-pin']),
  ];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 900_000 * REPS });
  if (run.status !== 0) return { failed: `open-error.js exited ${run.status}: ${`${run.stdout}${run.stderr}`.slice(-2_000)}` };
  const result = JSON.parse(await readFile(outFile, 'utf8'));
  const steadyOf = (row) => row.steady ?? {};
  const summarise = (row) => ({
    repetition: row.repetition,
    client: row.client === 'floor' ? (row.threads === 2 ? 'floor (uploads on a thread of their own)' : 'floor') : 'coachbench',
    streams: row.streams,
    requests: row.requests,
    errors: row.errors,
    processCpuSeconds: row.processCpuSeconds,
    window: `steady: ${steadyOf(row).fromSec}-${steadyOf(row).toSec} s`,
    errorVsNginxMs: steadyOf(row).errorVsNginxMs ?? null,
    errorVsRulerMs: steadyOf(row).errorVsRulerMs ?? null,
    ...(row.client === 'coachbench' ? { generatorHealthy: row.generatorHealthy, lateSlots: row.lateSlots } : { late: row.late }),
  });
  return {
    ratePerSec: ERROR_RATE,
    streams: ERROR_STREAMS,
    seconds: ERROR_SECONDS,
    rows: result.rows.map(summarise),
  };
}

/** `command` under GNU time: its peak RSS (VmHWM, KiB) from the line time prints. */
const peakRssKiB = (output) => Number(/^peak-rss-kib (\d+)$/m.exec(output)?.[1] ?? Number.NaN);

async function streamsWorkload() {
  const participants = Math.ceil(STREAMS / 2);
  const fixturesPath = join(dir, 'streams-fixtures.json');
  const serve = await startServe(['--participants', String(participants), '--keepalive', '15s', '--fixtures-out', fixturesPath]);
  pinTarget(serve.child.pid);
  const rampSec = STREAMS / STREAM_RAMP_PER_SEC;
  const streamSeconds = STREAMS * STREAM_SECONDS;
  const perStream = (run, open) => ({
    streamsOpen: open,
    peakRssKiBPerStream: open > 0 ? round(peakRssKiB(run.output) / open) : null,
    peakRssMiB: round(peakRssKiB(run.output) / 1_024),
    cpuUsPerStreamSecond: round((run.cpuSeconds * 1e6) / streamSeconds, 2),
    processCpuSeconds: round(run.cpuSeconds, 2),
    processWallSeconds: round(run.wallSeconds, 2),
  });
  const timed = (args, label) =>
    runMeasured('/usr/bin/time', ['-f', 'peak-rss-kib %M', process.execPath, ...args], { cpu: GENERATOR_CPU, outFile: outFileIn(dir, label) });
  const tools = [
    [
      'coachbench',
      async () => {
        const profilePath = join(dir, 'streams-profile.json');
        await writeFile(
          profilePath,
          JSON.stringify({
            name: 'peers-streams',
            duration: `${Math.ceil(rampSec + STREAM_SECONDS)}s`,
            chatStreams: { participants, rampPerSec: STREAM_RAMP_PER_SEC / 2, switchEvery: '0s', messageRatePerSec: 0, churnRatePerSec: 0, openTimeout: '30s' },
            photoUpload: { enabled: false },
            tagLink: { enabled: false },
            generator: { maxEventLoopDelayP99: '100ms' },
          }),
        );
        const out = join(dir, `streams-report-${Date.now()}`);
        const run = await timed(
          [BIN, 'run', '--profile', profilePath, '--target', serve.url, '--fixtures', fixturesPath, '--expect-keepalive', '15s', '--out', out, '--quiet'],
          'coachbench-streams',
        );
        const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8').catch(() => 'null'));
        if (report === null) throw new Error(`coachbench run exited ${run.code} without a report:\n${run.output}`);
        const chat = report.scenarios.chatStreams;
        return {
          ...perStream(run, chat.peakConcurrent + chat.mainStreams.peakConcurrent),
          openFailed: chat.openFailed,
          dropped: chat.dropped,
          verdict: report.verdict,
          // What a verdict other than pass rests on: a benchmark's run should pass its own checks.
          notPassed: report.checks.filter((check) => check.status !== 'pass' && check.status !== 'skip').map((check) => `${check.id}: ${check.detail}`),
        };
      },
    ],
    [
      'bareClient',
      async () => {
        const client = new URL('./bare-client.js', import.meta.url).pathname;
        const run = await timed([client, fixturesPath, serve.url, String(STREAMS), String(STREAM_RAMP_PER_SEC), String(STREAM_SECONDS)], 'bare-client');
        if (run.code !== 0) throw new Error(`bare-client.js exited ${run.code}:\n${run.output}`);
        return perStream(run, Number(/done open (\d+)/.exec(run.output)?.[1] ?? 0));
      },
    ],
  ];
  try {
    const rows = await rotate(tools, (run) => run());
    return {
      rows,
      medians: medians(rows),
      missing: {},
      notApplicable: {
        locust: 'not measured: Locust has no SSE client of its own, and a FastHttpUser that holds and parses streams was not written for this benchmark',
      },
    };
  } finally {
    await stopProcess(serve.child);
  }
}

const workloads = {};
if (ONLY.includes('closed')) workloads.closed = await closedWorkload();
if (ONLY.includes('open')) workloads.open = await openWorkload();
if (ONLY.includes('latency')) workloads.latency = await latencyWorkload();
if (ONLY.includes('streams')) workloads.streams = await streamsWorkload();
// A workload not measured now keeps its last measurement, marked with when that was (the table says so).
const previous = JSON.parse(await readFile(new URL('./results/peers.json', import.meta.url), 'utf8').catch(() => 'null'));
for (const [name, block] of Object.entries(previous?.workloads ?? {})) {
  if (!(name in workloads) && !block.skipped)
    workloads[name] = block.measuredAt
      ? block
      : {
          ...block,
          measuredAt: previous.measuredWith.startedAt,
          measuredWithSettings: previous.settings,
          measuredWithLoad: { loadavgAtStart: previous.measuredWith.busyness.loadavgAtStart.split(' ')[0], note: previous.measuredWith.note ?? null },
        };
}

const settings = {
  reps: REPS,
  seconds: SECONDS,
  streamSeconds: STREAM_SECONDS,
  streams: STREAMS,
  rates: RATES,
  baseRatePerSec: BASE_RATE,
  errorRatePerSec: ERROR_RATE,
  errorStreams: ERROR_STREAMS,
  errorSeconds: ERROR_SECONDS,
  tools: TOOLS ?? 'all installed',
  connections: CONNECTIONS,
  closedBytes: CLOSED_BYTES,
  openBytes: OPEN_BYTES,
  delayMs: DELAY_MS,
  pinned: GENERATOR_CPU === null ? 'no' : `generator on CPU ${GENERATOR_CPU}, target and nginx on CPU ${TARGET_CPU} (taskset, every thread)`,
};
const results = {
  goal: 'issue 30: coachbench beside wrk, h2load, hey, autocannon, Locust and Artillery on the closed model, the open model (CPU per request, marginal CPU, latency error against nginx) and held streams, with the floors of a bare undici open loop, of raw sockets with no HTTP parser (closed) and of the autocannon engine with the checks of coachbench (closed)',
  method: {
    closed: `${CONNECTIONS} connections (users, workers), ${CLOSED_BYTES}-byte JPEG multipart uploads, ${SECONDS} s, against coachbench serve; coachbench's closed model through bin/coachbench.js run; floor: bench/node-floor-client.js (raw net sockets, one prebuilt request per write, each answer's end found by its Content-Length, no HTTP parser, nothing checked, no latency recorded); checkedFloor: bench/checked-floor-client.js (the autocannon package as its CLI runs it, one prebuilt request, every answer through coachbench's own checks of a photo upload from dist/: status, the five headers, JSON media type and body, photoUrl; no traceparent, no metrics beyond autocannon's)`,
    open: `${RATES.join(' and ')} uploads/s (and ${BASE_RATE}/s, for the marginal CPU per request) of a ${OPEN_BYTES}-byte JPEG for ${SECONDS} s against coachbench serve --fault latency=${DELAY_MS}ms behind nginx (1 worker); error = the tool's p50/p99 minus nginx's $request_time p50/p99 over the same run (ms resolution). coachbench: open model, latency from each slot's intended start. Paced peers use max(${OPEN_CLIENTS}, rate / ${PER_CLIENT_RATE}) connections (users): h2load --rps and hey -q per connection, Locust constant_throughput per user (latency from each actual send); autocannon -R over as many connections (its own coordinated-omission correction; autocannonC adds -C, which turns it off); Artillery arrivalRate (one upload per virtual user); floor: bench/open-floor-client.js (undici request() on a Pool, one timer per due slot, nothing checked, latency from the intended start, young generation as coachbench run's). Marginal CPU per request = (CPU at the rate − CPU at ${BASE_RATE}/s) / (requests at the rate − requests at ${BASE_RATE}/s), medians`,
    latency: `bench/open-error.js --rate ${ERROR_RATE} --streams ${ERROR_STREAMS} --seconds ${ERROR_SECONDS} --repeat ${REPS}: ${REPS} rounds, each the floor's rows then coachbench's, medians per client and streams; coachbench and the floor client behind nginx (a sink that times itself behind it for the uploads, coachbench serve for the streams); steady-state window; error = client minus nginx's $request_time (ms resolution) and minus the sink's own time`,
    streams: `${STREAMS} streams (half main, half chat-session) opened at ${STREAM_RAMP_PER_SEC}/s and held ${STREAM_SECONDS} s after the ramp, KEEP_ALIVE 15 s, no messages; peak RSS = VmHWM (GNU time %M) / streams open; CPU per stream-second = process CPU / (streams × hold seconds), start-up and ramp included`,
    cpu: 'utime+stime of each tool process tree from /proc, start to exit (bench/lib/measured-command.js); per request = that CPU / the requests the tool counted',
    repetitions: `${REPS} per tool, tools interleaved in a rotating order; medians per tool (of an even count, the mean of the two middle values)`,
  },
  settings,
  peers,
  workloads,
};
const summarised = summarise(results);
const measuredWith = await writeResults('peers', begun, summarised);
if (writesLatestResults) await writePeersTable({ measuredWith, ...summarised });
else console.log('docs/benchmarks.md and README.md left as they are: they quote bench/results/peers.json, not --out');
