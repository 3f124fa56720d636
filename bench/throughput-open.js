// Benchmark (issue 4): the open model's achieved rate against the requested one, rate after
// rate, until the driver reports itself saturated (generator.healthy's rule: event-loop delay
// p99 over the profile bound, 50 ms) or the rate is no longer kept (dropped slots, or achieved
// more than 1 % short: the target or the driver cannot follow). Goal: achieved within 1 % of
// requested below saturation. Late slots (> 10 ms behind schedule) are reported per rate.
// Two series: against the reference target (which may stop keeping up before the driver does),
// then against bench/throughput-sink.js, a photo endpoint that does nothing, to find the
// driver's own ceiling. Writes the `open` section of bench/results/throughput.json.
//
//   npm run build && node bench/throughput-open.js [--rates 250,...,8000] [--sink-rates 4000,...,20000] [--seconds 10] [--size 16384]
import { loadavg } from 'node:os';
import { flag, newAgent, pinSelf, round, runPhoto, startSinkProcess, startTargetProcess, writeSection } from './throughput-lib.js';

const RATES = flag('rates', [250, 500, 1_000, 2_000, 3_000, 4_000, 6_000, 8_000]);
const SINK_RATES = flag('sink-rates', [4_000, 6_000, 8_000, 10_000, 12_000, 15_000, 20_000]);
const SECONDS = flag('seconds', 10);
const SIZE = flag('size', 16_384);
const MAX_IN_FLIGHT = flag('max-in-flight', 512);

/** Runs rate after rate against `server` until a stop reason shows; returns the rows. */
async function series(server, rates) {
  const rows = [];
  const dispatcher = newAgent();
  // Warm-up (discarded) so the first measured rate does not pay for the server's JIT.
  await runPhoto({ url: server.url, fixtures: server.fixtures, durationMs: 3_000, photo: { ratePerSec: 500, imageSizes: [SIZE] }, dispatcher });
  for (const rate of rates) {
    const { photo, generator, scheduledSlots } = await runPhoto({
      url: server.url,
      fixtures: server.fixtures,
      durationMs: SECONDS * 1_000,
      photo: { model: 'open', ratePerSec: rate, maxInFlight: MAX_IN_FLIGHT, imageSizes: [SIZE] },
      dispatcher,
    });
    const lateShare = scheduledSlots > 0 ? photo.lateSlots / scheduledSlots : 0;
    const reasons = [];
    if (generator.saturated) reasons.push(`event-loop delay p99 ${generator.eventLoopDelayMs.p99} ms > ${generator.maxEventLoopDelayP99Ms} ms`);
    if (photo.droppedSlots > 0) reasons.push(`${photo.droppedSlots} slots dropped at maxInFlight ${MAX_IN_FLIGHT}`);
    if (photo.throughputPerSec < rate * 0.99) reasons.push(`achieved ${round(photo.throughputPerSec)}/s, more than 1% short`);
    const row = {
      requestedPerSec: rate,
      achievedPerSec: round(photo.throughputPerSec, 2),
      achievedVsRequestedPct: round(((photo.throughputPerSec - rate) / rate) * 100, 2),
      completedOfScheduledPct: round((photo.requests / scheduledSlots) * 100, 3),
      requests: photo.requests,
      errors: photo.errors,
      lateSlots: photo.lateSlots,
      lateSlotsPct: round(lateShare * 100, 2),
      droppedSlots: photo.droppedSlots,
      latencyP50Ms: photo.latencyMs.p50,
      latencyP99Ms: photo.latencyMs.p99,
      serviceP99Ms: photo.serviceTimeMs.p99,
      eventLoopDelayP99Ms: generator.eventLoopDelayMs.p99,
      generatorCpuPercent: generator.cpuPercent,
      loadavg1: round(loadavg()[0] ?? 0, 2),
      driverSaturated: generator.saturated,
      stop: reasons,
    };
    rows.push(row);
    console.log(JSON.stringify(row));
    if (reasons.length > 0) break;
  }
  await dispatcher.close();
  const kept = rows.filter((r) => r.stop.length === 0);
  return {
    worstKeptRateDeviationPct: kept.length > 0 ? Math.max(...kept.map((r) => Math.abs(r.achievedVsRequestedPct))) : null,
    highestKeptRatePerSec: kept.at(-1)?.requestedPerSec ?? null,
    rows,
  };
}

// `--only sink` or `--only referenceTarget` runs one series (the other keeps its last result).
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
pinSelf();
const results = {};
for (const [name, start, rates] of [
  ['referenceTarget', () => startTargetProcess(), RATES],
  ['sink', () => startSinkProcess(), SINK_RATES],
]) {
  if (only !== null && only !== name) continue;
  const server = await start();
  try {
    results[name] = await series(server, rates);
  } finally {
    await server.stop();
  }
}

await writeSection('open', {
  goal: 'achieved within 1% of requested up to the rate where the driver reports itself saturated',
  secondsPerRate: SECONDS,
  imageBytes: SIZE,
  maxInFlight: MAX_IN_FLIGHT,
  ...results,
});
