// How a benchmark's numbers were taken, written into every bench/results/<benchmark>.json: the command,
// the machine, Node, the dates, and how busy the machine was with work that was not this
// benchmark (load average at start and end, and CPU seconds of other processes from /proc).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, release, totalmem } from 'node:os';
import { dirname, relative, resolve } from 'node:path';
import { libraryFlags } from './flags.js';

const flags = libraryFlags(import.meta.url, {
  out: {
    kind: 'text',
    value: 'FILE',
    means: 'writes the results to FILE instead of bench/results/<benchmark>.json (an A/B run, another build), leaving the docs that quote it as they are',
  },
});
const CLOCK_TICKS_PER_SEC = 100;
const REPO = new URL('../../', import.meta.url).pathname;

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').trim();

/** The 1-minute load average now, kept beside each run's figures. */
export const loadavg1 = () => Number(loadavg().split(' ')[0]);

/** Busy and steal CPU seconds of the whole machine so far (/proc/stat, all cores). */
function machineCpu() {
  const [user, nice, system, _idle, _iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { busySeconds: (user + nice + system + irq + softirq) / CLOCK_TICKS_PER_SEC, stealSeconds: steal / CLOCK_TICKS_PER_SEC };
}

/**
 * CPU seconds of this process and of every descendant it has reaped: each benchmark stops and
 * waits for every process it starts, and each of those waits for its own, so at the end this
 * is the benchmark's whole CPU.
 */
function benchmarkCpuSeconds() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS_PER_SEC;
}

function machine() {
  const fdLimit = spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim();
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    kernel: release(),
    fileDescriptorLimit: fdLimit,
  };
}

/** Starts the record of one benchmark run: call first, before any process is started. */
export function beginMeasurement() {
  const script = relative(REPO, process.argv[1] ?? 'bench');
  return {
    command: ['node', script, ...process.argv.slice(2)].join(' '),
    startedAt: new Date(),
    startWallMs: performance.now(),
    loadavgAtStart: loadavg(),
    machineCpuAtStart: machineCpu(),
    benchmarkCpuAtStart: benchmarkCpuSeconds(),
  };
}

/** The `measuredWith` block: call last, once every process the benchmark started has exited. */
export function endMeasurement(begun) {
  const wallSeconds = (performance.now() - begun.startWallMs) / 1_000;
  const now = machineCpu();
  const machineBusy = now.busySeconds - begun.machineCpuAtStart.busySeconds;
  const ours = benchmarkCpuSeconds() - begun.benchmarkCpuAtStart;
  const others = Math.max(0, machineBusy - ours);
  return {
    command: begun.command,
    // What the numbers cannot show about the conditions (other work on the machine, say), from the benchmark's --note.
    ...(begun.note ? { note: begun.note } : {}),
    startedAt: begun.startedAt.toISOString(),
    endedAt: new Date().toISOString(),
    node: process.version,
    machine: machine(),
    busyness: {
      loadavgAtStart: begun.loadavgAtStart,
      loadavgAtEnd: loadavg(),
      wallSeconds: +wallSeconds.toFixed(1),
      benchmarkCpuSeconds: +ours.toFixed(1),
      otherProcessesCpuSeconds: +others.toFixed(1),
      // Cores' worth of work by other processes while this ran: 0 on a quiet machine.
      otherProcessesCores: +(others / wallSeconds).toFixed(2),
      stealSeconds: +(now.stealSeconds - begun.machineCpuAtStart.stealSeconds).toFixed(1),
      note: 'loadavg from /proc/loadavg (includes this benchmark); CPU seconds from /proc/stat (whole machine) minus /proc/self/stat utime+stime+cutime+cstime (this benchmark and every process it started and reaped)',
    },
  };
}

/**
 * Where a benchmark's record goes: bench/results/<name>.json, one file per benchmark, overwritten
 * on every run (its history is in git; docs/benchmarks.md's results table is generated from these
 * files). `--out FILE` writes it to FILE instead and leaves bench/results/ alone: for an A/B
 * experiment, or another build measured through `--bin`, that is not the benchmark's latest result.
 */
export function resultsFile(name) {
  return flags.out ? resolve(flags.out) : new URL(`../results/${name}.json`, import.meta.url).pathname;
}

/**
 * Whether this run writes the benchmark's latest results (no `--out`): only those are quoted by
 * the docs, so a script that also writes a docs table writes it only then.
 */
export const writesLatestResults = !flags.out;

/**
 * The record a benchmark last wrote, or null: the whole file, or with `variant` its entry under
 * `variants` (streams.js --only carries the part it does not re-measure over from it).
 */
export async function readResults(name, variant = null) {
  const text = await readFile(resultsFile(name), 'utf8').catch(() => null);
  if (text === null) return null;
  const record = JSON.parse(text);
  return variant ? (record.variants?.[variant] ?? null) : record;
}

/**
 * Writes the benchmark's record, `measuredWith` first, then its data, to resultsFile(name). A
 * variant (streams.js --tls, workers.js --full: another size or protocol the docs quote) is one
 * entry under the file's `variants`, replaced alone; the default run keeps the file's variants.
 */
export async function writeResults(name, begun, data, variant = null) {
  const measuredWith = endMeasurement(begun);
  const path = resultsFile(name);
  const previous = JSON.parse(await readFile(path, 'utf8').catch(() => '{}'));
  const record = { measuredWith, ...data };
  const file = variant
    ? { ...previous, variants: { ...previous.variants, [variant]: record } }
    : { ...record, ...(previous.variants ? { variants: previous.variants } : {}) };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(file, null, 2)}\n`);
  console.log(
    `wrote ${relative(REPO, path)}${variant ? ` (variant ${variant})` : ''}; other processes used ${measuredWith.busyness.otherProcessesCores} cores meanwhile`,
  );
  return measuredWith;
}
