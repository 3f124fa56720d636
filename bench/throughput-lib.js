// Shared by the throughput benchmarks (bench/throughput-*.js): the reference target in its own
// process, coachbench's photo scenario run in this process exactly as `run` wires it (interval
// MetricSet rolled every second, generator monitor), and the results file.
//
// Everything talks to 127.0.0.1 only; every process started here is stopped by its PID.
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent } from 'undici';
import { resolveProfile } from '../dist/contract/profile/resolve-profile.js';
import { buildImageCorpus } from '../dist/drivers/throughput/image-corpus.js';
import { photoUploadScenario } from '../dist/drivers/throughput/index.js';
import { defaultPhotoBody } from '../dist/drivers/throughput/multipart-body.js';
import { GeneratorMonitor } from '../dist/metrics/generator-monitor.js';
import { buildGeneratorSummary } from '../dist/metrics/generator-summary.js';
import { MetricSet } from '../dist/metrics/metric-set.js';
import { scheduledSlotsName } from '../dist/metrics/throughput-extra-names.js';
import { buildPhotoUploadSummary } from '../dist/metrics/throughput-summary.js';

const BIN = new URL('../bin/coachbench.js', import.meta.url).pathname;

/** Starts `node args...` and resolves with the child and the URL once `pattern` matches its output. */
function startNode(args, pattern) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (chunk) => {
      output += chunk;
      const match = pattern.exec(output);
      if (match) resolve({ child, url: match[1] });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${output}`)));
  });
}

const startServe = (serveArgs) => startNode([BIN, 'serve', ...serveArgs], /coachbench serve: (http:\/\/\S+)/);

/** Stops a process this script started, by its PID: SIGTERM, then SIGKILL after 10 s. */
async function stopProcess(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export const RESULTS = new URL('./results/throughput.json', import.meta.url).pathname;
export const workDir = await mkdtemp(join(tmpdir(), 'coachbench-throughput-'));
process.once('exit', () => rmSync(workDir, { recursive: true, force: true }));

export { flag } from './lib/flags.js';

/*
 * On a 2-core machine the target gets CPU 0 and every load generator CPU 1 (taskset, all
 * threads), so neither steals the other's core and runs compare like for like.
 */
export const TARGET_CPU = '0';
export const GENERATOR_CPU = cpus().length > 1 ? '1' : '0';

/** `--no-pin` leaves placement to the scheduler (better when other work shares the machine). */
const PIN = !process.argv.includes('--no-pin');

function pin(pid, cpu) {
  if (!PIN) return;
  const result = spawnSync('taskset', ['-a', '-pc', cpu, String(pid)], { encoding: 'utf8' });
  if (result.status !== 0) console.warn(`taskset failed for ${pid}: ${result.stderr || result.error}`);
}

/** Pins this process (the in-process coachbench generator) to the generator CPU. */
export function pinSelf() {
  pin(process.pid, GENERATOR_CPU);
}

/** A command line run on the generator CPU. */
export const onGeneratorCpu = (command, args) => (PIN ? ['taskset', ['-c', GENERATOR_CPU, command, ...args]] : [command, args]);

/** The reference target as `coachbench serve` in its own process (its own event loop and core). */
export async function startTargetProcess(faults = [], participants = 20) {
  const fixturesPath = join(workDir, `fixtures-${Date.now()}.json`);
  const args = ['--port', '0', '--participants', String(participants), '--fixtures-out', fixturesPath];
  for (const fault of faults) args.push('--fault', fault);
  const target = await startServe(args);
  pin(target.child.pid, TARGET_CPU);
  const fixtures = JSON.parse(await readFile(fixturesPath, 'utf8'));
  return { ...target, fixtures, stop: () => stopProcess(target.child) };
}

/** bench/throughput-sink.js in its own process on the target CPU: a photo endpoint that does nothing. */
export async function startSinkProcess() {
  const sink = await startNode([new URL('./throughput-sink.js', import.meta.url).pathname], /sink: (http:\/\/\S+)/);
  pin(sink.child.pid, TARGET_CPU);
  const fixtures = { apiKey: 'sink-key', participants: [{ userId: 'p-1', token: 'sink-token', chatSessionIds: ['cs-1'] }] };
  return { ...sink, fixtures, stop: () => stopProcess(sink.child) };
}

/** The one body every tool sends: a default-part multipart upload of one JPEG of `sizeBytes`. */
export async function benchBody(sizeBytes) {
  const [image] = buildImageCorpus(['jpeg'], [sizeBytes]);
  const body = defaultPhotoBody(image);
  const imagePath = join(workDir, `photo-${sizeBytes}.jpg`);
  const bodyPath = join(workDir, `body-${sizeBytes}.bin`);
  await writeFile(imagePath, image.bytes);
  await writeFile(bodyPath, body.body);
  return { image, body, imagePath, bodyPath };
}

/**
 * Runs coachbench's photo scenario in this process against `url` with one participant (the
 * same path and token as the other tools), the recorder's one-second interval roll-up and the
 * generator monitor. Returns the report's photoUpload and generator summaries.
 */
export async function runPhoto({ url, fixtures, durationMs, photo, maxEventLoopDelayP99Ms = 50, dispatcher: shared }) {
  const profile = resolveProfile(
    {
      name: 'bench-throughput',
      duration: `${durationMs}ms`,
      chatStreams: { enabled: false },
      photoUpload: { enabled: true, formats: ['jpeg'], overrideShare: 0, timeout: '10s', ...photo },
      generator: { maxEventLoopDelayP99: `${maxEventLoopDelayP99Ms}ms` },
    },
    'bench',
  );
  const total = new MetricSet();
  const interval = new MetricSet();
  const monitor = new GeneratorMonitor();
  const controller = new AbortController();
  // A run holds one Agent for its whole duration; a series of short runs passes one in so that
  // each rate does not start from zero connections (a start-up burst no real run repeats).
  const dispatcher = shared ?? newAgent();
  const runStartMs = performance.now();
  const ctx = {
    apiBase: `${url}/api/v1`,
    fixtures: { ...fixtures, participants: fixtures.participants.slice(0, 1) },
    profile,
    metrics: interval,
    dispatcher,
    runStartMs,
    endMs: runStartMs + durationMs,
    expectKeepAliveMs: 15_000,
    keepAliveToleranceMs: 1_500,
    signal: controller.signal,
  };
  const roll = () => {
    monitor.collect(interval);
    total.add(interval);
    interval.reset();
  };
  monitor.start();
  const roller = setInterval(roll, 1_000);
  const stopAt = setTimeout(() => controller.abort(), durationMs);
  await photoUploadScenario.run(ctx);
  clearTimeout(stopAt);
  clearInterval(roller);
  roll();
  monitor.stop();
  if (!shared) await dispatcher.close();
  return {
    photo: buildPhotoUploadSummary(total, profile.photoUpload),
    generator: buildGeneratorSummary(total, { maxEventLoopDelayP99Ms, processes: 1, rssBytes: process.memoryUsage.rss() }),
    scheduledSlots: total.count(scheduledSlotsName('photoUpload')),
  };
}

/** The Agent a run uses (as src/run/execute-run.ts configures one per run). */
export const newAgent = () => new Agent({ keepAliveTimeout: 30_000 });

/** Merges one section into bench/results/throughput.json (other sections are kept). */
export async function writeSection(name, data) {
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  let results = {};
  try {
    results = JSON.parse(await readFile(RESULTS, 'utf8'));
  } catch {
    /* first run */
  }
  results.machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}); target and load generator in separate processes${PIN ? ' pinned to separate CPUs' : ''}, all on 127.0.0.1`;
  results.node = process.version;
  results[name] = { ...results[name], measuredAt: new Date().toISOString(), ...data };
  await writeFile(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
}

export const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
