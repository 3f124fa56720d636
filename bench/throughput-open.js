// Benchmark (issue 4): the open model's achieved rate against the requested one, rate after
// rate, until the driver reports itself saturated (generator.healthy's rule: event-loop delay
// p99 over the profile bound, 50 ms) or the rate is no longer kept (dropped slots, or achieved
// more than 1 % short: the target or the driver cannot follow). Goal: achieved within 1 % of
// requested below saturation. Late slots (> 10 ms behind schedule) are reported per rate.
// Writes the `open` section of bench/results/throughput.json.
//
//   npm run build && node bench/throughput-open.js [--rates 250,500,1000,2000,3000,4000,6000,8000] [--seconds 10] [--size 16384]
import { loadavg } from 'node:os';
import { flag, pinSelf, round, runPhoto, startTargetProcess, writeSection } from './throughput-lib.js';

const RATES = flag('rates', [250, 500, 1_000, 2_000, 3_000, 4_000, 6_000, 8_000]);
const SECONDS = flag('seconds', 10);
const SIZE = flag('size', 16_384);
const MAX_IN_FLIGHT = flag('max-in-flight', 512);

pinSelf();
const target = await startTargetProcess();
const rows = [];
try {
  // Warm-up (discarded) so the first measured rate does not pay for the target's JIT.
  await runPhoto({ url: target.url, fixtures: target.fixtures, durationMs: 3_000, photo: { ratePerSec: 500, imageSizes: [SIZE] } });
  for (const rate of RATES) {
    const { photo, generator, scheduledSlots } = await runPhoto({
      url: target.url,
      fixtures: target.fixtures,
      durationMs: SECONDS * 1_000,
      photo: { model: 'open', ratePerSec: rate, maxInFlight: MAX_IN_FLIGHT, imageSizes: [SIZE] },
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
} finally {
  await target.stop();
}

const healthy = rows.filter((r) => r.stop.length === 0);
await writeSection('open', {
  goal: 'achieved within 1% of requested up to the rate where the driver reports itself saturated',
  secondsPerRate: SECONDS,
  imageBytes: SIZE,
  maxInFlight: MAX_IN_FLIGHT,
  worstKeptRateDeviationPct: healthy.length > 0 ? Math.max(...healthy.map((r) => Math.abs(r.achievedVsRequestedPct))) : null,
  highestKeptRatePerSec: healthy.at(-1)?.requestedPerSec ?? null,
  rows,
});
