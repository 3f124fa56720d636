// Benchmark: the open model's achieved rate against the requested one, as `coachbench run`
// (bin/coachbench.js with a profile written here) delivers it, rate after rate, until the run
// reports its generator saturated (generator.healthy's rule: event-loop delay p99 over the
// profile bound, 50 ms) or the rate is no longer kept (dropped slots, or achieved more than 1 %
// short). Goal: achieved within 1 % of requested below saturation. Each rate is one run, one
// process, as a user runs it (connections opened from cold).
// Two series: against the reference target (which may stop keeping up before the driver does),
// then against bench/throughput-sink.js, a photo endpoint that does nothing but count, to find
// the driver's own ceiling; there the sink's count of uploads answered is the ruler the report's
// count is held to. Writes bench/results/throughput-open.json.
//
//   node bench/throughput-open.js --help   (its flags, from their declaration below)
import { photoFigures, photoProfile, runCoachbench } from './lib/coachbench-run.js';
import { parseFlags } from './lib/flags.js';
import { GENERATOR_CPU, PINNED, startPhotoTarget, startSink } from './lib/photo-target.js';
import { benchDir } from './lib/processes.js';
import { beginMeasurement, loadavg1, writeResults } from './lib/results.js';
import { rounder } from './lib/round.js';

const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    rates: { kind: 'numbers', default: [500, 1_000, 2_000, 4_000, 6_000, 8_000], means: 'requested rates against the reference target, in turn' },
    'sink-rates': { kind: 'numbers', default: [6_000, 8_000, 10_000, 12_000], means: 'requested rates against bench/throughput-sink.js, in turn' },
    seconds: { kind: 'number', default: 8, means: 'duration of each run' },
    size: { kind: 'number', default: 16_384, means: 'bytes of the uploaded JPEG' },
    'max-in-flight': { kind: 'number', default: 512, means: "the open model's bound on requests in flight" },
    only: { kind: 'text', choices: ['referenceTarget', 'sink'], means: 'measures one series alone' },
  },
});
const RATES = flags.rates;
const SINK_RATES = flags['sink-rates'];
const SECONDS = flags.seconds;
const SIZE = flags.size;
const MAX_IN_FLIGHT = flags['max-in-flight'];
const ONLY = flags.only;

const begun = beginMeasurement();
const dir = await benchDir('open');
const round = rounder(1);

const openRun = (server, rate, seconds) =>
  runCoachbench({
    dir,
    profile: photoProfile(`bench-open-${rate}`, seconds, SIZE, { model: 'open', ratePerSec: rate, maxInFlight: MAX_IN_FLIGHT }),
    targetUrl: server.url,
    fixturesPath: server.fixturesPath,
    cpu: GENERATOR_CPU,
  });

/** Runs rate after rate against `server` until a stop reason shows; returns the rows. */
async function series(server, rates) {
  const rows = [];
  // Warm-up (discarded) so the first measured rate does not pay for the server's JIT.
  await openRun(server, 500, 3);
  for (const rate of rates) {
    const answeredBefore = server.answered ? await server.answered() : null;
    const run = await openRun(server, rate, SECONDS);
    const photo = run.report.scenarios.photoUpload;
    const figures = photoFigures(run);
    const reasons = [];
    if (run.report.generator.saturated)
      reasons.push(`event-loop delay p99 ${figures.eventLoopDelayP99Ms} ms > ${run.report.generator.maxEventLoopDelayP99Ms} ms`);
    if (photo.droppedSlots > 0) reasons.push(`${photo.droppedSlots} slots dropped at maxInFlight ${MAX_IN_FLIGHT}`);
    if (photo.throughputPerSec < rate * 0.99) reasons.push(`achieved ${round(photo.throughputPerSec)}/s, more than 1% short`);
    const row = {
      requestedPerSec: rate,
      achievedPerSec: round(photo.throughputPerSec, 2),
      achievedVsRequestedPct: round(((photo.throughputPerSec - rate) / rate) * 100, 2),
      requests: photo.requests,
      errors: photo.errors,
      lateSlots: photo.lateSlots,
      lateSlotsPctOfRequests: photo.requests > 0 ? round((photo.lateSlots / photo.requests) * 100, 2) : 0,
      droppedSlots: photo.droppedSlots,
      latencyP50Ms: photo.latencyMs.p50,
      latencyP99Ms: photo.latencyMs.p99,
      serviceP99Ms: photo.serviceTimeMs.p99,
      eventLoopDelayP99Ms: figures.eventLoopDelayP99Ms,
      generatorCpuPercent: run.report.generator.cpuPercent,
      cpuUsPerRequest: figures.cpuUsPerRequest,
      loadCpuUsPerRequest: figures.loadCpuUsPerRequest,
      loadavg1: loadavg1(),
      driverSaturated: run.report.generator.saturated,
      stop: reasons,
    };
    if (answeredBefore !== null) {
      // Everything the run sent to the sink: the load, plus the handful of probe uploads at the start.
      const probes = run.report.metrics.counters['probes.requests'] ?? 0;
      row.sinkAnswered = (await server.answered()) - answeredBefore;
      row.reportedRequestsPlusProbes = photo.requests + probes;
    }
    rows.push(row);
    console.log(JSON.stringify(row));
    if (reasons.length > 0) break;
  }
  const kept = rows.filter((r) => r.stop.length === 0);
  return {
    worstKeptRateDeviationPct: kept.length > 0 ? Math.max(...kept.map((r) => Math.abs(r.achievedVsRequestedPct))) : null,
    highestKeptRatePerSec: kept.at(-1)?.requestedPerSec ?? null,
    rows,
  };
}

const results = {};
for (const [name, start, rates] of [
  ['referenceTarget', () => startPhotoTarget(dir), RATES],
  ['sink', () => startSink(dir), SINK_RATES],
]) {
  if (ONLY !== null && ONLY !== name) continue;
  const server = await start();
  try {
    results[name] = await series(server, rates);
  } finally {
    await server.stop();
  }
}

await writeResults('throughput-open', begun, {
  goal: 'achieved within 1% of requested up to the rate where the run reports its generator saturated',
  method: {
    coachbench: `one bin/coachbench.js run per rate, a profile of photoUpload only (model open, ratePerSec R, maxInFlight ${MAX_IN_FLIGHT}, one ${SIZE}-byte JPEG), ${SECONDS} s; numbers from its report.json; one discarded 3 s run at 500/s first`,
    stop: 'a series stops at the first rate with generator.saturated, dropped slots, or achieved more than 1% below requested',
    sinkRuler:
      'against the sink, sinkAnswered (uploads the sink counted) is held against reportedRequestsPlusProbes (photoUpload.requests + probes.requests from report.json)',
    cpuUsPerRequest:
      'utime+stime of the coachbench process from /proc, start to exit, / requests; loadCpuUsPerRequest is the CPU the run counted while load ran',
    pinning: PINNED ? 'target on CPU 0, coachbench on CPU 1 (taskset)' : 'none (--no-pin)',
  },
  secondsPerRate: SECONDS,
  imageBytes: SIZE,
  maxInFlight: MAX_IN_FLIGHT,
  ...results,
});
