// Benchmark (issue 4): closed-model photo-upload throughput of coachbench against autocannon's
// own CLI and wrk, on the reference target in its own process, with the same connections, the
// same path and token, and the same image in the same `filename` part. Goal: within 5 %.
// Writes the `closed` section of bench/results/throughput.json.
//
//   npm run build && node bench/throughput-closed.js [--connections 16] [--seconds 5] [--reps 7] [--sizes 16384,262144]
//
// The machine this runs on may be shared: runs are short, the three tools take turns in a
// rotating order within each repetition, and the comparison is the median of the paired
// ratios (coachbench / tool in the same repetition). Each run also reports the generator's
// CPU time per request (for autocannon and wrk through the shell's `times`), which other
// load on the machine disturbs far less than throughput.
//
// Body: coachbench and wrk send the identical multipart bytes (our fixed-boundary body, wrk reads
// it from a file in its Lua script). autocannon's CLI cannot send a binary file as a raw body
// (`-i FILE` reads it as UTF-8 and `-b` takes a literal string), so it sends the same image with
// its own `-F` form: the same part name and image, another boundary (a few bytes longer).
import { spawn, spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { buildImageCorpus } from '../dist/drivers/throughput/image-corpus.js';
import { defaultPhotoBody } from '../dist/drivers/throughput/multipart-body.js';
import { benchBody, flag, onGeneratorCpu, pinSelf, round, runPhoto, startTargetProcess, workDir, writeSection } from './throughput-lib.js';

const CONNECTIONS = flag('connections', 16);
const SECONDS = flag('seconds', 5);
const REPS = flag('reps', 7);
const SIZES = flag('sizes', [16_384, 262_144]);
const AUTOCANNON = new URL('../node_modules/.bin/autocannon', import.meta.url).pathname;
const ACCEPT = 'application/json, application/problem+json';

/** Runs a tool on the generator CPU; resolves with its stdout and its CPU seconds (user + system). */
function run(tool, toolArgs, env = {}) {
  const [command, args] = onGeneratorCpu(tool, toolArgs);
  // bash's `times` prints the CPU time of the children it waited for on its second line.
  const script = `"$@" > "$CB_OUT"; status=$?; times >&2; exit $status`;
  const outFile = join(workDir, 'tool-out.txt');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script, 'bash', command, ...args], {
      env: { ...process.env, ...env, CB_OUT: outFile },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('exit', async (code) => {
      if (code !== 0) return reject(new Error(`${command} exited ${code}: ${err}`));
      const lines = err.trim().split('\n');
      const [user, sys] = (lines.at(-1) ?? '').split(/\s+/).map((t) => {
        const m = /(\d+)m([\d.]+)s/.exec(t);
        return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
      });
      resolve({ out: await readFile(outFile, 'utf8'), cpuSeconds: user + sys });
    });
  });
}

const cpuUsPerRequest = (cpuSeconds, requests) => (requests > 0 ? round((cpuSeconds * 1e6) / requests, 1) : NaN);

/** CPU seconds the scenario spends building its corpus and body before the load starts. */
function setupCpuSeconds(size) {
  const cpu = process.cpuUsage();
  for (let i = 0; i < 5; i++) defaultPhotoBody(buildImageCorpus(['jpeg'], [size])[0]);
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1e6 / 5;
}

async function coachbench(url, fixtures, size) {
  const setup = setupCpuSeconds(size);
  const cpu = process.cpuUsage();
  const { photo } = await runPhoto({ url, fixtures, durationMs: SECONDS * 1_000, photo: { model: 'closed', connections: CONNECTIONS, imageSizes: [size] } });
  const used = process.cpuUsage(cpu);
  return {
    perSec: photo.throughputPerSec,
    requests: photo.requests,
    errors: photo.errors,
    p50Ms: photo.latencyMs.p50,
    p99Ms: photo.latencyMs.p99,
    // The corpus is built before the load starts; its CPU is not per-request cost.
    cpuUsPerRequest: cpuUsPerRequest((used.user + used.system) / 1e6 - setup, photo.requests),
  };
}

async function autocannonCli(url, fixtures, body) {
  const participant = fixtures.participants[0];
  const form = { filename: { type: 'file', path: body.imagePath, options: { filename: body.image.fileName, contentType: 'image/jpeg' } } };
  const { out, cpuSeconds } = await run(AUTOCANNON, [
    '-c',
    String(CONNECTIONS),
    '-d',
    String(SECONDS),
    '-m',
    'PATCH',
    '-j',
    '-n',
    '-H',
    `Accept=${ACCEPT}`,
    '-H',
    `Authorization=Bearer ${participant.token}`,
    '-H',
    `X-API-Key=${fixtures.apiKey}`,
    '-F',
    JSON.stringify(form),
    `${url}/api/v1/participants/${participant.userId}/profile_photo`,
  ]);
  const result = JSON.parse(out.trim().split('\n').pop());
  return {
    perSec: result.requests.total / result.duration,
    requests: result.requests.total,
    errors: result.errors + result.non2xx,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuUsPerRequest: cpuUsPerRequest(cpuSeconds, result.requests.total),
  };
}

async function wrk(url, fixtures, body) {
  const participant = fixtures.participants[0];
  const script = join(workDir, 'photo.lua');
  // Secrets and the body path travel in the environment, not in argv (visible in ps).
  await writeFile(
    script,
    [
      'wrk.method = "PATCH"',
      'local f = assert(io.open(os.getenv("CB_BODY"), "rb"))',
      'wrk.body = f:read("*a")',
      'f:close()',
      'wrk.headers["Content-Type"] = os.getenv("CB_CT")',
      'wrk.headers["Accept"] = os.getenv("CB_ACCEPT")',
      'wrk.headers["Authorization"] = "Bearer " .. os.getenv("CB_TOKEN")',
      'wrk.headers["X-API-Key"] = os.getenv("CB_KEY")',
      '',
    ].join('\n'),
  );
  const { out, cpuSeconds } = await run(
    'wrk',
    [
      '-t1',
      `-c${CONNECTIONS}`,
      `-d${SECONDS}s`,
      '--timeout',
      '10s',
      '--latency',
      '-s',
      script,
      `${url}/api/v1/participants/${participant.userId}/profile_photo`,
    ],
    {
      CB_BODY: body.bodyPath,
      CB_CT: body.body.contentType,
      CB_ACCEPT: ACCEPT,
      CB_TOKEN: participant.token,
      CB_KEY: fixtures.apiKey,
    },
  );
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const perSec = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const toMs = (m) => (m ? Number(m[1]) * { us: 0.001, ms: 1, s: 1_000 }[m[2]] : NaN);
  return {
    perSec,
    requests,
    errors: non2xx,
    p50Ms: toMs(/50%\s+([\d.]+)(us|ms|s)/.exec(out)),
    p99Ms: toMs(/99%\s+([\d.]+)(us|ms|s)/.exec(out)),
    cpuUsPerRequest: cpuUsPerRequest(cpuSeconds, requests),
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// `wrk -v` prints its version and exits 1.
const wrkVersion = spawnSync('wrk', ['-v'], { encoding: 'utf8' }).stdout.split('\n')[0]?.trim() || 'wrk';
pinSelf();
const target = await startTargetProcess();
const sizes = [];
try {
  for (const size of SIZES) {
    const body = await benchBody(size);
    // Warm-up (discarded): the target's JIT and buffers settle before anything is measured.
    await coachbench(target.url, target.fixtures, size);
    const runs = { coachbench: [], autocannon: [], wrk: [] };
    // loadavg1 is kept with every run: other work on the machine shows there, not in the numbers.
    const withLoad = async (result) => ({ ...(await result), loadavg1: round(loadavg()[0] ?? 0, 2) });
    const tools = [
      ['coachbench', () => coachbench(target.url, target.fixtures, size)],
      ['autocannon', () => autocannonCli(target.url, target.fixtures, body)],
      ['wrk', () => wrk(target.url, target.fixtures, body)],
    ];
    for (let rep = 0; rep < REPS; rep++) {
      // Rotate who goes first so that no tool always follows the same neighbour.
      for (let i = 0; i < tools.length; i++) {
        const [name, measure] = tools[(rep + i) % tools.length];
        runs[name].push(await withLoad(measure()));
      }
      console.log(`size ${size} rep ${rep + 1}:`, Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, round(v.at(-1).perSec)])));
    }
    const perSec = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, round(median(v.map((r) => r.perSec)))]));
    const cpu = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, round(median(v.map((r) => r.cpuUsPerRequest)))]));
    const pairedPct = (other) => round((median(runs.coachbench.map((r, i) => r.perSec / runs[other][i].perSec)) - 1) * 100, 2);
    sizes.push({
      imageBytes: size,
      bodyBytes: body.body.body.length,
      medianPerSec: perSec,
      coachbenchVsAutocannonPct: pairedPct('autocannon'),
      coachbenchVsWrkPct: pairedPct('wrk'),
      generatorCpuUsPerRequest: cpu,
      runs,
    });
  }
} finally {
  await target.stop();
}

await writeSection('closed', {
  goal: 'coachbench closed-model throughput within 5% of autocannon CLI and wrk',
  connections: CONNECTIONS,
  secondsPerRun: SECONDS,
  repetitions: REPS,
  tools: { autocannon: 'autocannon 9 CLI (-F form, same image and part name)', wrk: `${wrkVersion}, 1 thread, Lua body from file` },
  sizes,
});
console.log(
  JSON.stringify(
    sizes.map(({ runs, ...rest }) => rest),
    null,
    2,
  ),
);
