// The results table of docs/benchmarks.md, between <!-- results:start --> and <!-- results:end -->,
// rendered from the latest bench/results/<benchmark>.json of every benchmark (a variant, such as
// streams.js --tls, is a row of its own). `npm run docs:benchmarks` (scripts/benchmark-docs.js)
// rewrites it; test/bench/benchmark-docs.test.ts fails while the doc says otherwise. Pure: the
// caller reads the files. Written in TypeScript so that `npm run typecheck` checks it, and loaded
// by Node's type stripping from the script.
import { spliceBetweenMarkers } from './markers.js';
import { median } from './median.js';

/** A results file as JSON.parse gives it: each renderer reads the fields its benchmark writes. */
// biome-ignore lint/suspicious/noExplicitAny: the shape is each benchmark's own, read field by field below.
type Json = any;

/** One benchmark's results, or null when its file is missing. */
export type ReadResults = (benchmark: string) => Json | null;

interface Row {
  benchmark: string;
  record: Json;
  figures: string;
  goal: string;
}

/** The benchmarks in the order of bench/run-all.js, then those run by hand. */
export const BENCHMARKS = [
  'startup',
  'cpu-profile',
  'stream-close',
  'throughput-closed',
  'throughput-open',
  'throughput-latency',
  'open-error',
  'streams',
  'workers',
  'peers',
  'ab-closed',
  'perf-split',
  'http2-requests',
  'soak',
  'redact',
] as const;

/** Goals for the benchmarks whose file does not state one (issue 15's, unless said). */
const GOALS: Record<string, string> = {
  streams: 'RSS per stream ≤ 1.1× the bare client',
  'streams/full': '19,000 streams in one process; RSS per stream ≤ 1.1× the bare client',
  'streams/h2': 'RSS per stream ≤ 1.25× the bare client',
  'workers/h2': 'zero stream failures',
  soak: 'RSS slope ≤ 0.05 MiB/min over an hour after warm-up',
};

const num = (value: number, digits = 1): string => value.toLocaleString('en-US', { maximumFractionDigits: digits });
const signed = (value: number, digits = 1): string => `${value > 0 ? '+' : value < 0 ? '−' : ''}${num(Math.abs(value), digits)}`;
const kib = (bytes: number): string => `${num(bytes / 1_024, 0)} KiB`;

function startup(r: Json): string {
  const build = r.build === 'this checkout' ? '' : ` (build ${r.build})`;
  return `fixed CPU per run **${num(r.medianFixedCpuSeconds, 2)} s**, ${num(r.medianCpuUsPerRequest)} µs per request at the margin (medians of ${r.pairs.length} pairs)${build}; \`coachbench --version\` ${num(r.versionCpuSeconds.compileCache, 2)} s`;
}

function cpuProfile(r: Json): string {
  const top = (list: Json[], key: 'perRequestUs' | 'fixedMs', unit: string) =>
    list
      .slice(0, 3)
      .map((o) => `${o.owner} ${num(o[key])}${unit}`)
      .join(', ');
  return `under the profiler: ${num(r.processCpuUsPerRequest)} µs per request (main thread sampled ${num(r.sampledCpuUsPerRequest)}: ${top(r.owners, 'perRequestUs', ' µs')}); fixed ${num(r.processFixedCpuSeconds, 2)} s (sampled ${num(r.sampledFixedCpuSeconds, 2)}: ${top(r.fixedOwners, 'fixedMs', ' ms')})`;
}

function streamClose(r: Json): string {
  return Object.entries(r.builds as Record<string, Json>)
    .map(([build, b]) => `${build === 'this checkout' ? '**this checkout**' : 'the `--bin` build'} ${num(b.medianUsPerStream)} µs per stream`)
    .join(' against ');
}

function throughputClosed(r: Json): string {
  return (r.sizes as Json[])
    .map((s) => {
      const ratio = s.cpuPerRequestVsWrk;
      const compared = ratio.coachbenchCompared === undefined ? '' : `, \`--compare-bin\` ${ratio.coachbenchCompared}×`;
      return `${num(s.imageBytes / 1_024, 0)} KiB: ${num(s.medianPerSec.coachbench, 0)}/s (${signed(s.coachbenchVsAutocannonPct)} % vs autocannon, ${signed(s.coachbenchVsWrkPct)} % vs wrk); CPU per request ${num(s.medianCpuUsPerRequest.coachbench)} µs = **${ratio.coachbench}× wrk** (autocannon ${ratio.autocannon}×, Node floor ${ratio.nodeFloor}×${compared})`;
    })
    .join('; ');
}

function throughputOpen(r: Json): string {
  const rows = (rows: Json[]) => rows.map((x) => `${num(x.requestedPerSec, 0)}/s ${signed(x.achievedVsRequestedPct, 2)} %`).join(', ');
  const sink = r.sink.rows.at(-1);
  const count = sink ? `; the sink answered ${num(sink.sinkAnswered, 0)}, the report counted ${num(sink.reportedRequestsPlusProbes, 0)}` : '';
  return `achieved vs requested: ${rows(r.referenceTarget.rows)}; against the sink ${rows(r.sink.rows)}${count}`;
}

function throughputLatency(r: Json): string {
  return (r.rows as Json[])
    .map((x) => `${x.tool} ${x.model} p50 ${num(x.p50Ms, 2)} / p99 ${num(x.p99Ms, 2)} ms (${signed(x.p50BeyondTargetMs, 2)} ms beyond 50 ms + own time)`)
    .join('; ');
}

function openError(r: Json): string {
  const groups = new Map<string, Json[]>();
  for (const row of r.rows as Json[]) {
    const who = row.client === 'floor' ? `bare client${row.streams > 0 ? ` (${row.threads} thread${row.threads === 1 ? '' : 's'})` : ''}` : 'coachbench';
    const key = `${who}, ${num(row.streams, 0)} streams`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const window = (rows: Json[], name: string) =>
    `${signed(median(rows.map((x) => x[name].errorVsRulerMs.p50)))} / ${signed(median(rows.map((x) => x[name].errorVsRulerMs.p99)))}`;
  const reps = Math.max(...(r.rows as Json[]).map((x) => x.repetition));
  const parts = [...groups].map(([key, rows]) => `${key}: steady ${window(rows, 'steady')}, first second ${window(rows, 'firstSecond')}`);
  return `${num(r.ratePerSec, 0)} uploads/s of ${kib(r.imageBytes)}, error vs the sink's own time p50 / p99 in ms (median of ${reps}): ${parts.join('; ')}`;
}

function streams(r: Json): string {
  const c = r.capacity;
  const failed = c.failedChecks.length > 0 ? `; fails ${c.failedChecks.map((f: string) => `\`${f.split(':')[0]}\``).join(', ')}` : '; every check passing';
  const accuracy = r.accuracy
    ? `; event latency beyond a 50 ms delay and the target's own time ${signed(r.accuracy.beyondFaultAndTargetTimeP50Ms, 2)} / ${signed(r.accuracy.beyondFaultAndTargetTimeP99Ms, 2)} ms at p50 / p99 (${num(r.accuracy.streams, 0)} streams, measured ${r.accuracy.measuredWith?.startedAt?.slice(0, 10) ?? 'with the rest'})`
    : '';
  return `**${num(c.streamsHeld, 0)} of ${num(c.streamsTarget, 0)}** held, ${c.openFailed} failed opens, ${c.dropped} drops, ${num(c.deliveries.received, 0)} of ${num(c.deliveries.expected, 0)} deliveries; RSS **${num(c.rss.driverKiBPerStream)} vs ${num(c.rss.bareKiBPerStream)} KiB per stream (${c.rss.ratio}×)** the bare client; CPU ${num(c.generator.cpuPercent)} %, event-loop p99 ${num(c.generator.eventLoopDelayP99Ms)} ms${failed}${accuracy}`;
}

function workers(r: Json): string {
  return (r.rows as Json[])
    .map((x) => {
      const driverRss = Math.max(...(x.processes as Json[]).filter((p) => p.role.startsWith('driver')).map((p) => p.peakRssMiB));
      const cadence = x.keepAliveGapMs ? `, KEEP_ALIVE gap p99 ${num(x.keepAliveGapMs.p99 / 1_000, 2)} s` : '';
      return `${x.driverWorkers} driver × ${x.targetWorkers} target workers: **${num(x.streamsHeld, 0)} of ${num(x.streamsPlanned, 0)}** held, ${num(x.deliveries.received, 0)} of ${num(x.deliveries.expected, 0)} deliveries, event latency p99 ${num(x.eventLatencyMs.p99)} ms${cadence}, driver process peak ≤ ${num(driverRss, 0)} MiB, ${x.verdict}`;
    })
    .join('; ');
}

function peers(r: Json): string {
  const tools = Object.keys(r.workloads?.closed?.medians ?? {}).length;
  return `${tools} tools on the closed model, the open model and streams: [the peers table](#peers-coachbench-beside-the-tools-users-would-pick-instead), written by \`bench/peers.js\``;
}

function abClosed(r: Json): string {
  const ratio = r.pairedRatiosThisCheckoutToOther;
  return `this checkout / the \`--bin\` build, paired median ratios: throughput ${ratio.perSec}, CPU per request ${ratio.cpuUsPerRequest} (during the load ${ratio.loadCpuUsPerRequest}); ${num(r.medians.thisCheckout.perSec, 0)}/s against ${num(r.medians.other.perSec, 0)}/s`;
}

function perfSplit(r: Json): string {
  const top = (r.split as Json[])
    .slice(0, 3)
    .map((o) => `${o.owner} ${signed(o.difference, 2)}`)
    .join(', ');
  return `under perf, closed model: coachbench **${num(r.medians.coachbench.usPerRequest)} µs** per request, autocannon's CLI ${num(r.medians.autocannon.usPerRequest)} µs; most apart: ${top} µs`;
}

function http2Requests(r: Json): string {
  const h1 = r['http1.1'];
  const h2 = r.http2;
  return `${num(r.rate, 0)}/s over TLS, CPU per request h2 vs HTTP/1.1: photo **${num(h2.photoUpload.cpuUsPerRequest, 0)} vs ${num(h1.photoUpload.cpuUsPerRequest, 0)} µs** (${r.h2OverH1.photoCpuPerRequest}×), p99 ${num(h2.photoUpload.p99Ms, 0)} vs ${num(h1.photoUpload.p99Ms, 0)} ms; tags **${num(h2.tagLink.cpuUsPerRequest, 0)} vs ${num(h1.tagLink.cpuUsPerRequest, 0)} µs** (${r.h2OverH1.tagsCpuPerRequest}×), p99 ${num(h2.tagLink.p99Ms, 0)} vs ${num(h1.tagLink.p99Ms, 0)} ms`;
}

function soak(r: Json): string {
  const from = Object.entries(r.rssSlopeMiBPerMinFrom ?? {})
    .map(([minute, slope]) => `${signed(slope as number, 3)} from minute ${minute.replace('minute', '')}`)
    .join(', ');
  return `${r.profile}, ${num(r.streams, 0)} streams, ${r.minutes} minutes: RSS slope **${signed(r.rssSlopeMiBPerMin, 3)} MiB/min over minutes ${r.fromMinute}–${r.minutes}** (${from}); live heap after full GCs ${signed(r.heapAfterFullGcSlopeMiBPerMin, 3)} MiB/min; ${r.verdict}`;
}

function redact(r: Json): string {
  const registered = r.redactNsPerText['5000TokensRegistered'];
  return `registering ${num(r.participants, 0)} tokens ${num(r.registerMs)} ms (${num(r.registeredHeapMiB)} MiB of heap); redacting 2 KiB of text ${num(registered.withoutToken['2048B'] / 1_000)} µs without a token, ${num(registered.withToken['2048B'] / 1_000)} µs with one (${num(r.redactNsPerText.noTokensRegistered.withoutToken['2048B'] / 1_000)} µs with none registered)`;
}

const RENDER: Record<(typeof BENCHMARKS)[number], (record: Json) => string> = {
  startup,
  'cpu-profile': cpuProfile,
  'stream-close': streamClose,
  'throughput-closed': throughputClosed,
  'throughput-open': throughputOpen,
  'throughput-latency': throughputLatency,
  'open-error': openError,
  streams,
  workers,
  peers,
  'ab-closed': abClosed,
  'perf-split': perfSplit,
  'http2-requests': http2Requests,
  soak,
  redact,
};

function rows(read: ReadResults): Row[] {
  return BENCHMARKS.flatMap((benchmark) => {
    const file = read(benchmark);
    if (file === null) return [];
    const { variants = {}, ...main } = file;
    const entries: [string, Json][] = [
      ...(main.measuredWith ? [[benchmark, main] as [string, Json]] : []),
      ...Object.entries(variants as Record<string, Json>).map(([v, record]): [string, Json] => [`${benchmark}/${v}`, record]),
    ];
    return entries.map(([name, record]) => ({ benchmark: name, record, figures: RENDER[benchmark](record), goal: record.goal ?? GOALS[name] ?? '' }));
  });
}

/** When and how: the date and minute it started (UTC), Node's version, and the cores other processes used meanwhile. */
function when(record: Json): string {
  const m = record.measuredWith ?? {};
  const at = (m.startedAt ?? record.measuredAt ?? '').slice(0, 16).replace('T', ' ');
  const node = m.node ?? record.node;
  const busy = m.busyness?.otherProcessesCores;
  return [at || 'not recorded', node ? `Node ${node.replace(/^v/, '')}` : null, busy === undefined ? null : `others ${busy}`].filter(Boolean).join(', ');
}

/** The Markdown between the markers, generated from every benchmark's latest results file. */
export function renderResultsTable(read: ReadResults): string {
  const lines = [
    '<!-- generated by `npm run docs:benchmarks` from bench/results/<benchmark>.json; do not edit by hand -->',
    '',
    '| benchmark (results file, variant) | measured (UTC), Node, other processes (cores) | latest figures | goal |',
    '|---|---|---|---|',
    ...rows(read).map((row) => {
      const [file, variant] = row.benchmark.split('/');
      const name = `\`${file}.json\`${variant ? ` \`${variant}\`` : ''}`;
      return `| ${name} | ${when(row.record)} | ${row.figures.replaceAll('|', '\\|')} | ${row.goal} |`;
    }),
  ];
  return lines.join('\n');
}

/** `doc` with the part between the results markers replaced by `table`. */
export function spliceResultsTable(doc: string, table: string): string {
  return spliceBetweenMarkers(doc, 'results', table);
}
