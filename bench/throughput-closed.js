// Benchmark: closed-model photo-upload throughput of `coachbench run` (bin/coachbench.js with a
// profile written here) beside two rulers nobody here wrote, autocannon's own CLI and wrk,
// against the reference target in its own process, with the same connections, path, token and
// image. Goal: coachbench within 5 % of both. For each tool: requests/s, and generator CPU per
// request (utime+stime of the generator process from /proc, start to exit, bench/lib/measured-command.js).
// Three more rows say where the floor is: Node's own (node-floor-client.js, raw sockets, no
// checks, no HTTP parser), a bare loop on undici's Pool (undici-pool-client.js) and on its
// lowest public layer (undici-dispatch-client.js: the other maintained parser, llhttp).
// Issue 15 asks for coachbench's CPU per request <= 1.5x wrk's; Node's floor against wrk's is
// the bound on that.
// Writes bench/results/throughput-closed.json.
//
//   node bench/throughput-closed.js --help   (its flags, from their declaration below)
//
// --compare-bin runs another build of coachbench (a worktree of an older commit, say) in the same
// rotation, as the row `coachbenchCompared`: before and after side by side, the rulers between them.
//
// The machine may be shared: runs are short, the tools take turns in a rotating order within
// each repetition, and the comparison is the median of the paired ratios (coachbench / tool in
// the same repetition).
import { photoFigures, photoProfile, runCoachbench } from './lib/coachbench-run.js';
import { parseFlags } from './lib/flags.js';
import { median } from './lib/median.js';
import { GENERATOR_CPU, PINNED, photoBody, startPhotoTarget } from './lib/photo-target.js';
import { BIN, benchDir } from './lib/processes.js';
import { beginMeasurement, loadavg1, writeResults } from './lib/results.js';
import { rounder } from './lib/round.js';
import { AUTOCANNON_CLI, autocannonCli, nodeClient, wrk, wrkStatus } from './lib/rulers.js';

const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    connections: { kind: 'number', default: 16, means: 'connections of every tool' },
    seconds: { kind: 'number', default: 5, means: 'duration of each run' },
    reps: { kind: 'number', default: 3, means: 'repetitions; the tools take turns in a rotating order within each' },
    sizes: { kind: 'numbers', default: [1_024, 16_384, 262_144], means: 'bytes of the uploaded JPEG, one series each' },
    'compare-bin': { kind: 'text', value: 'PATH', means: 'another build in the same rotation, as the row coachbenchCompared: its bin/coachbench.js' },
  },
});
const CONNECTIONS = flags.connections;
const SECONDS = flags.seconds;
const REPS = flags.reps;
const SIZES = flags.sizes;
const COMPARE_BIN = flags['compare-bin'];

const begun = beginMeasurement();
const dir = await benchDir('closed');
const wrkTool = wrkStatus();
if (wrkTool.reason) console.log(`skipping wrk: ${wrkTool.reason}`);

const round = rounder(1);

async function coachbench(target, size, bin = BIN) {
  const profile = photoProfile(`bench-closed-${size}`, SECONDS, size, { model: 'closed', connections: CONNECTIONS });
  return photoFigures(await runCoachbench({ dir, profile, targetUrl: target.url, fixturesPath: target.fixturesPath, cpu: GENERATOR_CPU, bin }));
}

const target = await startPhotoTarget(dir);
const sizes = [];
try {
  for (const size of SIZES) {
    const body = await photoBody(dir, size);
    const ruler = { dir, url: target.url, fixtures: target.fixtures, body, connections: CONNECTIONS, seconds: SECONDS, cpu: GENERATOR_CPU };
    const tools = [
      ['coachbench', () => coachbench(target, size)],
      ...(COMPARE_BIN ? [['coachbenchCompared', () => coachbench(target, size, COMPARE_BIN)]] : []),
      ['autocannon', () => autocannonCli(ruler)],
      ...(wrkTool.version ? [['wrk', () => wrk(ruler)]] : []),
      ['nodeFloor', () => nodeClient('node-floor-client.js', ruler)],
      ['undiciPool', () => nodeClient('undici-pool-client.js', ruler)],
      ['undiciDispatch', () => nodeClient('undici-dispatch-client.js', ruler)],
    ];
    // Warm-up (discarded): the target's JIT and buffers settle before anything is measured.
    await coachbench(target, size);
    const runs = Object.fromEntries(tools.map(([name]) => [name, []]));
    for (let rep = 0; rep < REPS; rep++) {
      // Rotate who goes first so that no tool always follows the same neighbour.
      for (let i = 0; i < tools.length; i++) {
        const [name, measure] = tools[(rep + i) % tools.length];
        runs[name].push({ ...(await measure()), loadavg1: loadavg1() });
      }
      console.log(`size ${size} rep ${rep + 1}:`, Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, v.at(-1).perSec])));
    }
    const medianOf = (field) => Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, median(v.map((r) => r[field]))]));
    const pairedPct = (other) => (runs[other] ? round((median(runs.coachbench.map((r, i) => r.perSec / runs[other][i].perSec)) - 1) * 100, 2) : null);
    sizes.push({
      imageBytes: size,
      bodyBytes: body.body.body.length,
      medianPerSec: medianOf('perSec'),
      coachbenchVsAutocannonPct: pairedPct('autocannon'),
      coachbenchVsWrkPct: pairedPct('wrk'),
      medianCpuUsPerRequest: medianOf('cpuUsPerRequest'),
      cpuPerRequestVsWrk: runs.wrk
        ? Object.fromEntries(Object.keys(runs).map((k) => [k, round(median(runs[k].map((r, i) => r.cpuUsPerRequest / runs.wrk[i].cpuUsPerRequest)), 2)]))
        : null,
      coachbenchLoadCpuUsPerRequest: median(runs.coachbench.map((r) => r.loadCpuUsPerRequest)),
      runs,
    });
  }
} finally {
  await target.stop();
}

await writeResults('throughput-closed', begun, {
  goal: 'coachbench run (closed model) within 5% of the throughput of autocannon CLI and wrk; generator CPU per request <= 1.5x wrk at 16 KiB, <= 1.2x at 256 KiB (issue 15)',
  ...(COMPARE_BIN ? { coachbenchCompared: COMPARE_BIN } : {}),
  method: {
    coachbench: `bin/coachbench.js run with a profile of photoUpload only (model closed, ${CONNECTIONS} connections, one JPEG, filename part), ${SECONDS} s; numbers from its report.json`,
    autocannon: `node ${AUTOCANNON_CLI.replace(/.*node_modules/, 'node_modules')} -c ${CONNECTIONS} -d ${SECONDS} -m PATCH -F <same image, filename part> -j`,
    wrk: wrkTool.version
      ? `${wrkTool.version}: wrk -t1 -c${CONNECTIONS} -d${SECONDS}s --latency -s <Lua script sending the identical body from a file>`
      : wrkTool.reason,
    nodeFloor:
      'bench/node-floor-client.js: raw net sockets, one prebuilt request Buffer per write, answers delimited by Content-Length, nothing checked (the floor of a Node.js generator)',
    undiciPool: 'bench/undici-pool-client.js: undici Pool, pipelining 1, await request() and body.text() per request',
    undiciDispatch:
      "bench/undici-dispatch-client.js: one undici Client per connection, pipelining 1, dispatch() with a handler that keeps the body as text (undici's llhttp parser with the least of its client around it)",
    target: 'coachbench serve in its own process, one participant path and token for every tool',
    pinning: PINNED ? 'target on CPU 0, every generator on CPU 1 (taskset)' : 'none (--no-pin)',
    cpuUsPerRequest:
      'utime+stime of the generator process from /proc, start to exit, / requests answered; coachbench also reports loadCpuUsPerRequest, its own CPU count while load ran',
    comparison: `median over ${REPS} repetitions of coachbench / tool in the same repetition; tools in rotating order; one discarded coachbench warm-up per size`,
  },
  connections: CONNECTIONS,
  secondsPerRun: SECONDS,
  repetitions: REPS,
  sizes,
});
console.log(
  JSON.stringify(
    sizes.map(({ runs, ...rest }) => rest),
    null,
    2,
  ),
);
