// Benchmark: the CPU of closing checked streams, as `coachbench run` closes them at the end of
// a run (ChatDriver.closeAll, src/drivers/chat/chat-driver.ts), from V8's sampling profiler
// (node --cpu-prof, 0.1 ms interval, through NODE_OPTIONS): the main thread's samples whose
// stack passes through closeAll, over the streams the run held. Session switches close streams
// the same way (SseStream.close, src/engine/sse-reader.ts). `--bin` measures another build
// against the same target, one run of each in turn. Writes bench/results/stream-close.json.
//
//   node bench/stream-close.js --help   (its flags, from their declaration below)
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCoachbench } from './lib/coachbench-run.js';
import { mainThreadProfiles } from './lib/cpu-profile-summary.js';
import { parseFlags } from './lib/flags.js';
import { median } from './lib/median.js';
import { GENERATOR_CPU, pinToTargetCpu } from './lib/photo-target.js';
import { BIN, benchDir, startServe, stopProcess } from './lib/processes.js';
import { beginMeasurement, writeResults } from './lib/results.js';

const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    streams: { kind: 'number', default: 4_000, means: 'checked streams each run holds and closes' },
    reps: { kind: 'number', default: 3, means: 'runs of each build' },
    bin: { kind: 'text', value: 'PATH', means: 'another build measured against the same target, one run of each in turn: its bin/coachbench.js' },
  },
});
const STREAMS = flags.streams;
const REPS = flags.reps;
const OTHER_BIN = flags.bin;
const FUNCTION = 'closeAll';

const begun = beginMeasurement();
const dir = await benchDir('stream-close');
const participants = STREAMS / 2;
const fixturesPath = join(dir, 'fixtures.json');
const serve = await startServe(['--participants', String(participants), '--keepalive', '15s', '--fixtures-out', fixturesPath]);
pinToTargetCpu(serve.child.pid);

/** Self time (µs) of the samples whose stack passes through a function named `name`. */
function microsUnder(profile, name) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const under = new Set();
  const visit = (node, inside) => {
    const here = inside || node.callFrame.functionName === name;
    if (here) under.add(node.id);
    for (const child of node.children ?? []) visit(byId.get(child), here);
  };
  visit(profile.nodes[0], false);
  let us = 0;
  profile.samples.forEach((id, i) => {
    if (under.has(id)) us += profile.timeDeltas[i + 1] ?? 0;
  });
  return us;
}

let runs = 0;
async function closeCost(bin) {
  const profDir = join(dir, `prof-${++runs}`);
  const run = await runCoachbench({
    dir,
    bin,
    profile: {
      name: `stream-close-${STREAMS}`,
      duration: '6s',
      keepAliveTolerance: '10%',
      target: { keepAlive: '15s', participants },
      chatStreams: { participants, rampPerSec: 1_000, switchEvery: '10m', messageRatePerSec: 5, churnRatePerSec: 0 },
      photoUpload: { enabled: false },
      tagLink: { enabled: false },
    },
    targetUrl: serve.url,
    fixturesPath,
    cpu: GENERATOR_CPU,
    env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profDir} --cpu-prof-interval 100` },
  });
  const chat = run.report.scenarios.chatStreams;
  const held = chat.peakConcurrent + chat.mainStreams.peakConcurrent;
  if (held !== STREAMS) throw new Error(`the run held ${held} streams, not ${STREAMS}`);
  // The main thread's profile of the process after run's re-execution (the last one written).
  const file = (await mainThreadProfiles(profDir)).at(-1);
  const us = microsUnder(JSON.parse(await readFile(join(profDir, file), 'utf8')), FUNCTION);
  return { streams: held, closeAllMs: Math.round(us / 100) / 10, usPerStream: Math.round((us / held) * 10) / 10 };
}

const builds = [{ name: 'this checkout', bin: BIN }, ...(OTHER_BIN ? [{ name: OTHER_BIN, bin: OTHER_BIN }] : [])];
const results = Object.fromEntries(builds.map(({ name }) => [name, []]));
try {
  await closeCost(BIN); // warm-up (discarded): the target's JIT and the compile cache settle
  for (let rep = 0; rep < REPS; rep++) {
    for (const { name, bin } of rep % 2 === 0 ? builds : [...builds].reverse()) {
      const result = await closeCost(bin);
      results[name].push(result);
      console.log(`${name}: ${result.usPerStream} µs per stream (${result.closeAllMs} ms for ${result.streams})`);
    }
  }
} finally {
  await stopProcess(serve.child);
}

await writeResults('stream-close', begun, {
  method: {
    run: `bin/coachbench.js run: ${STREAMS / 2} participants, each holding its main and one chat-session stream (${STREAMS} streams, opened at 1,000/s), 6 s, against coachbench serve (KEEP_ALIVE 15 s)`,
    cpu: `main-thread samples of node --cpu-prof (0.1 ms interval) whose stack passes through ${FUNCTION} (src/drivers/chat/chat-driver.ts, the end of the run), over the streams held`,
    order: 'one discarded warm-up run, then the builds in alternating order per repetition',
    pinning: GENERATOR_CPU === null ? 'none' : `target on CPU 0, coachbench on CPU ${GENERATOR_CPU} (taskset)`,
  },
  builds: Object.fromEntries(Object.entries(results).map(([name, reps]) => [name, { medianUsPerStream: median(reps.map((r) => r.usPerStream)), reps }])),
});
