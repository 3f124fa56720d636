// Benchmark: measurement accuracy against a known delay. The reference target runs with
// `--fault latency=50` (every answer held 50 ms); `coachbench run`'s photo latency p50/p99
// (from its report.json) must read 50 ms ± 1 ms, in the open model (from the intended start)
// and the closed model. The same load against a target without the fault gives the target's
// own time. In the closed model autocannon's CLI and wrk read the same delayed target with
// the same connections, as rulers. Writes bench/results/throughput-latency.json.
//
//   node bench/throughput-latency.js --help   (its flags, from their declaration below)
import { photoFigures, photoProfile, runCoachbench } from './lib/coachbench-run.js';
import { parseFlags } from './lib/flags.js';
import { GENERATOR_CPU, PINNED, photoBody, startPhotoTarget } from './lib/photo-target.js';
import { benchDir } from './lib/processes.js';
import { beginMeasurement, loadavg1, writeResults } from './lib/results.js';
import { rounder } from './lib/round.js';
import { autocannonCli, wrk, wrkStatus } from './lib/rulers.js';

const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    seconds: { kind: 'number', default: 8, means: 'duration of each run' },
    rate: { kind: 'number', default: 200, means: 'uploads per second of the open-model runs' },
    connections: { kind: 'number', default: 16, means: 'connections of the closed-model runs' },
    // Small uploads: the target's own upload handling is part of every reading, the fault is what is measured.
    size: { kind: 'number', default: 2_048, means: 'bytes of the uploaded JPEG' },
  },
});
const SECONDS = flags.seconds;
const RATE = flags.rate;
const CONNECTIONS = flags.connections;
const SIZE = flags.size;
const DELAY_MS = 50;

const begun = beginMeasurement();
const dir = await benchDir('latency');
const wrkTool = wrkStatus();
if (wrkTool.reason) console.log(`skipping wrk: ${wrkTool.reason}`);
const round = rounder(3);

const baseline = await startPhotoTarget(dir);
const delayed = await startPhotoTarget(dir, [`latency=${DELAY_MS}ms`]);
const body = await photoBody(dir, SIZE);
const rows = [];

/** One reading of the delayed target, beside the same load on the plain target. */
function row(tool, model, withFault, withoutFault) {
  return {
    tool,
    model,
    requests: withFault.requests,
    errors: withFault.errors,
    throughputPerSec: withFault.perSec,
    p50Ms: withFault.p50Ms,
    p99Ms: withFault.p99Ms,
    withoutFaultMs: { p50: withoutFault.p50Ms, p99: withoutFault.p99Ms },
    p50ErrorMs: round(withFault.p50Ms - DELAY_MS),
    p99ErrorMs: round(withFault.p99Ms - DELAY_MS),
    // What the reading adds beyond the fault and the target's own no-fault time: the generator's error.
    p50BeyondTargetMs: round(withFault.p50Ms - DELAY_MS - withoutFault.p50Ms),
    withinOneMs: Math.abs(withFault.p50Ms - DELAY_MS) <= 1 && Math.abs(withFault.p99Ms - DELAY_MS) <= 1,
    cpuUsPerRequest: withFault.cpuUsPerRequest,
    loadavg1: loadavg1(),
  };
}

try {
  const coachbench = async (target, model, photo) => {
    const profile = photoProfile(`bench-latency-${model}`, SECONDS, SIZE, photo);
    const run = await runCoachbench({ dir, profile, targetUrl: target.url, fixturesPath: target.fixturesPath, cpu: GENERATOR_CPU });
    return { ...photoFigures(run), serviceP50Ms: run.report.scenarios.photoUpload.serviceTimeMs.p50 };
  };
  for (const [model, photo] of [
    ['open', { model: 'open', ratePerSec: RATE }],
    ['closed', { model: 'closed', connections: CONNECTIONS }],
  ]) {
    const without = await coachbench(baseline, model, photo);
    const withFault = await coachbench(delayed, model, photo);
    rows.push({ ...row('coachbench', model, withFault, without), serviceP50Ms: withFault.serviceP50Ms, eventLoopDelayP99Ms: withFault.eventLoopDelayP99Ms });
    console.log(JSON.stringify(rows.at(-1)));
  }
  const rulers = [['autocannon', autocannonCli], ...(wrkTool.version ? [['wrk', wrk]] : [])];
  for (const [tool, measure] of rulers) {
    const options = { dir, body, connections: CONNECTIONS, seconds: SECONDS, cpu: GENERATOR_CPU };
    const without = await measure({ ...options, url: baseline.url, fixtures: baseline.fixtures });
    const withFault = await measure({ ...options, url: delayed.url, fixtures: delayed.fixtures });
    rows.push(row(tool, 'closed', withFault, without));
    console.log(JSON.stringify(rows.at(-1)));
  }
} finally {
  await Promise.all([baseline.stop(), delayed.stop()]);
}

await writeResults('throughput-latency', begun, {
  goal: `p50 and p99 read ${DELAY_MS} ms ± 1 ms with the target's latency=${DELAY_MS}ms fault`,
  method: {
    coachbench: `bin/coachbench.js run, a profile of photoUpload only (one ${SIZE}-byte JPEG), ${SECONDS} s: open model at ${RATE}/s (latency from the intended start), closed model with ${CONNECTIONS} connections; p50/p99 from report.json`,
    rulers: `autocannon CLI (-c ${CONNECTIONS}, latency in whole ms) and ${wrkTool.version ?? 'wrk (not installed: skipped)'} (-t1 -c${CONNECTIONS} --latency), same delayed and plain targets`,
    targets: `two coachbench serve processes, one with --fault latency=${DELAY_MS}ms, one without (the target's own time)`,
    pinning: PINNED ? 'targets on CPU 0, every generator on CPU 1 (taskset)' : 'none (--no-pin)',
  },
  seconds: SECONDS,
  imageBytes: SIZE,
  openRatePerSec: RATE,
  closedConnections: CONNECTIONS,
  rows,
});
