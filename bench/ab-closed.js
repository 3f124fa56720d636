// Benchmark: two builds of coachbench side by side on the closed model, for a change to the
// engine or the build (the bundle, a new parser, a dependency bump): the photo profile of
// startup.js (16 connections, one JPEG) for --seconds, this checkout and --bin in alternating
// order against one reference target, --pairs times. Per run, throughput and CPU per request
// from its report (during the load: report.generator.cpuPercent over the run) and from /proc
// (the whole process, fixed cost included); medians per build, and the paired ratios, whose
// median says more than the medians' ratio on a VM whose speed drifts between runs. Writes
// bench/results/ab-closed.json.
//
//   node bench/ab-closed.js --help   (its flags, from their declaration below)
import { photoFigures, photoProfile, runCoachbench } from './lib/coachbench-run.js';
import { parseFlags } from './lib/flags.js';
import { median } from './lib/median.js';
import { GENERATOR_CPU, startPhotoTarget } from './lib/photo-target.js';
import { BIN, benchDir } from './lib/processes.js';
import { beginMeasurement, writeResults } from './lib/results.js';
import { rounder } from './lib/round.js';

const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    bin: { kind: 'text', value: 'PATH', required: true, means: 'the other build to compare with: its bin/coachbench.js' },
    pairs: { kind: 'number', default: 8, means: 'pairs of runs, one of each build, in alternating order' },
    seconds: { kind: 'number', default: 8, means: 'duration of each run' },
    size: { kind: 'number', default: 16_384, means: 'bytes of the uploaded JPEG' },
  },
});
const OTHER = flags.bin;
const PAIRS = flags.pairs;
const SECONDS = flags.seconds;
const SIZE = flags.size;

const begun = beginMeasurement();
const dir = await benchDir('ab-closed');
const target = await startPhotoTarget(dir);
const builds = { thisCheckout: BIN, other: OTHER };
const runs = { thisCheckout: [], other: [] };
try {
  for (let pair = 0; pair < PAIRS; pair++) {
    for (const name of pair % 2 === 0 ? ['thisCheckout', 'other'] : ['other', 'thisCheckout']) {
      const profile = photoProfile(`ab-closed-${name}`, SECONDS, SIZE, { model: 'closed', connections: 16 });
      const figures = photoFigures(
        await runCoachbench({ dir, profile, targetUrl: target.url, fixturesPath: target.fixturesPath, cpu: GENERATOR_CPU, bin: builds[name] }),
      );
      runs[name].push(figures);
      console.log(
        `pair ${pair + 1} ${name}: ${figures.perSec}/s, ${figures.loadCpuUsPerRequest} µs per request during load, ${figures.cpuUsPerRequest} whole process`,
      );
    }
  }
} finally {
  await target.stop();
}

const round = rounder(3);
const FIELDS = ['perSec', 'loadCpuUsPerRequest', 'cpuUsPerRequest'];
const medians = (figures) => Object.fromEntries(FIELDS.map((field) => [field, median(figures.map((f) => f[field]))]));
const pairedRatios = Object.fromEntries(FIELDS.map((field) => [field, round(median(runs.thisCheckout.map((f, i) => f[field] / runs.other[i][field])))]));
const result = {
  method: {
    run: `bin/coachbench.js run, photoUpload only (model closed, 16 connections, one ${SIZE} B JPEG), ${SECONDS} s, the two builds in alternating order, ${PAIRS} pairs`,
    cpu: 'loadCpuUsPerRequest: report.generator.cpuPercent over the run, per request; cpuUsPerRequest: utime+stime of the process from /proc, start to exit, per request',
    pinning: GENERATOR_CPU === null ? 'none (--no-pin)' : `target on CPU 0, coachbench on CPU ${GENERATOR_CPU} (taskset)`,
  },
  builds: { thisCheckout: 'this checkout', other: OTHER },
  medians: { thisCheckout: medians(runs.thisCheckout), other: medians(runs.other) },
  pairedRatiosThisCheckoutToOther: pairedRatios,
  runs,
};
await writeResults('ab-closed', begun, result);
console.log(JSON.stringify({ medians: result.medians, pairedRatios }, null, 1));
