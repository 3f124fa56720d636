// Benchmark (issue 4): measurement accuracy against a known delay. The reference target runs
// with `--fault latency=50` (every answer held 50 ms); coachbench's photo latency p50/p99 must
// read 50 ms ± 1 ms, in the open model (from the intended start) and the closed model.
// Writes the `latency` section of bench/results/throughput.json.
//
//   npm run build && node bench/throughput-latency.js [--seconds 10] [--rate 200] [--connections 16] [--size 2048]
import { loadavg } from 'node:os';
import { flag, pinSelf, round, runPhoto, startTargetProcess, writeSection } from './throughput-lib.js';

const SECONDS = flag('seconds', 10);
const RATE = flag('rate', 200);
const CONNECTIONS = flag('connections', 16);
// Small uploads: the target's own upload handling is part of every reading, the fault is what is measured.
const SIZE = flag('size', 2_048);
const DELAY_MS = 50;

pinSelf();
const baseline = await startTargetProcess();
const delayed = await startTargetProcess([`latency=${DELAY_MS}`]);
const rows = [];
try {
  const models = [
    ['open', { model: 'open', ratePerSec: RATE, imageSizes: [SIZE] }],
    ['closed', { model: 'closed', connections: CONNECTIONS, imageSizes: [SIZE] }],
  ];
  for (const [name, photo] of models) {
    // Same load without the fault: what the target itself adds on top of the 50 ms.
    const base = await runPhoto({ url: baseline.url, fixtures: baseline.fixtures, durationMs: SECONDS * 1_000, photo });
    const run = await runPhoto({ url: delayed.url, fixtures: delayed.fixtures, durationMs: SECONDS * 1_000, photo });
    const { latencyMs, serviceTimeMs } = run.photo;
    const row = {
      model: name,
      requests: run.photo.requests,
      errors: run.photo.errors,
      throughputPerSec: round(run.photo.throughputPerSec, 1),
      latencyMs: { p50: latencyMs.p50, p90: latencyMs.p90, p99: latencyMs.p99, max: latencyMs.max },
      serviceTimeMs: { p50: serviceTimeMs.p50, p99: serviceTimeMs.p99 },
      withoutFaultMs: { p50: base.photo.latencyMs.p50, p99: base.photo.latencyMs.p99 },
      p50ErrorMs: round(latencyMs.p50 - DELAY_MS, 3),
      // What the reading adds beyond the fault and the target's own no-fault time: the driver's error.
      p50BeyondTargetMs: round(latencyMs.p50 - DELAY_MS - base.photo.latencyMs.p50, 3),
      p99ErrorMs: round(latencyMs.p99 - DELAY_MS, 3),
      withinOneMs: Math.abs(latencyMs.p50 - DELAY_MS) <= 1 && Math.abs(latencyMs.p99 - DELAY_MS) <= 1,
      eventLoopDelayP99Ms: run.generator.eventLoopDelayMs.p99,
      loadavg1: round(loadavg()[0] ?? 0, 2),
    };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
} finally {
  await Promise.all([baseline.stop(), delayed.stop()]);
}

await writeSection('latency', {
  goal: `p50 and p99 read ${DELAY_MS} ms ± 1 ms with the target's latency=${DELAY_MS} fault`,
  seconds: SECONDS,
  imageBytes: SIZE,
  openRatePerSec: RATE,
  closedConnections: CONNECTIONS,
  rows,
});
