// One `coachbench run` exactly as a user runs it (bin/coachbench.js, a profile file written here,
// --target and --fixtures of a process the benchmark started), its CPU measured from /proc and
// its numbers read back from the report.json it wrote.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runMeasured } from './measured-command.js';
import { BIN } from './processes.js';
import { rounder } from './round.js';

let runs = 0;

/**
 * Writes `profile` to a file under `dir`, runs `coachbench run` (`bin`, this checkout's by
 * default; `nodeArgs` go to node before it; `wrapper`, a command such as `perf record --`, runs
 * node) against `targetUrl` on `cpu`,
 * and resolves with the report, the exit code, the output, and the process's CPU and wall seconds.
 * Exit 0 and 1 both leave a report; anything else is the benchmark's error.
 */
export async function runCoachbench({ dir, profile, targetUrl, fixturesPath, cpu = null, args = [], bin = BIN, env = {}, nodeArgs = [], wrapper = [] }) {
  const runDir = join(dir, `run-${++runs}-${profile.name}`);
  await mkdir(runDir, { recursive: true });
  const profilePath = join(runDir, 'profile.json');
  await writeFile(profilePath, JSON.stringify(profile, null, 2));
  const outDir = join(runDir, 'report');
  const cliArgs = [...nodeArgs, bin, 'run', '--profile', profilePath, '--target', targetUrl, '--fixtures', fixturesPath, '--out', outDir, '--quiet', ...args];
  const [command, ...commandArgs] = [...wrapper, process.execPath, ...cliArgs];
  const result = await runMeasured(command, commandArgs, { cpu, env, outFile: join(runDir, 'output.txt') });
  if (result.code !== 0 && result.code !== 1) throw new Error(`coachbench run exited ${result.code}:\n${result.output}`);
  const report = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8'));
  return {
    ...result,
    report,
    outDir,
    command: `coachbench run --profile <${profile.name}> --target <url> --fixtures <file> --out <dir> --quiet ${args.join(' ')}`.trim(),
  };
}

/** A profile that runs the photo scenario only, one JPEG of `sizeBytes`, every upload in the `filename` part. */
export function photoProfile(name, durationSec, sizeBytes, photo) {
  return {
    name,
    duration: `${durationSec}s`,
    chatStreams: { enabled: false },
    photoUpload: { enabled: true, formats: ['jpeg'], imageSizes: [sizeBytes], overrideShare: 0, timeout: '10s', ...photo },
    tagLink: { enabled: false },
  };
}

const round = rounder(1);

/**
 * The figures a throughput benchmark keeps from one run of `scenario` (photoUpload or tagLink). CPU per request is the whole
 * process (start, corpus, probes, report files included) from /proc, the same measure as for
 * the other tools; `loadCpuUsPerRequest` is the CPU the run itself counted while load ran
 * (report.generator.cpuPercent over the run's duration).
 */
export function scenarioFigures({ report, cpuSeconds, wallSeconds }, scenario) {
  const measured = report.scenarios[scenario];
  const loadCpuSeconds = (report.generator.cpuPercent / 100) * (report.durationMs / 1_000);
  const perRequest = (seconds) => (measured.requests > 0 ? round((seconds * 1e6) / measured.requests) : null);
  return {
    perSec: round(measured.throughputPerSec, 1),
    requests: measured.requests,
    errors: measured.errors,
    p50Ms: measured.latencyMs.p50,
    p99Ms: measured.latencyMs.p99,
    cpuUsPerRequest: perRequest(cpuSeconds),
    loadCpuUsPerRequest: perRequest(loadCpuSeconds),
    processCpuSeconds: round(cpuSeconds, 2),
    processWallSeconds: round(wallSeconds, 2),
    eventLoopDelayP99Ms: report.generator.eventLoopDelayMs.p99,
    generatorSaturated: report.generator.saturated,
  };
}

/** scenarioFigures of a photo run. */
export const photoFigures = (result) => scenarioFigures(result, 'photoUpload');
