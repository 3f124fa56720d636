/**
 * One measured session against an already resolved, reachable target: this process (or N
 * driver workers) runs the scenarios, the interval collector keeps the totals, and the
 * report folder is written. A run is one session; a capacity search is one per step.
 */

import { mkdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Report, ShardInfo } from '../contract/report.js';
import { scenariosFor } from '../drivers/scenarios.js';
import { runScenarios } from '../engine/run-scenarios.js';
import { IntervalCollector } from '../metrics/interval-collector.js';
import { buildReport } from '../report/build-report.js';
import { writeReportFiles } from '../report/write-report.js';
import { ExitCode } from '../util/errors.js';
import { secretsSnapshot } from '../util/redact.js';
import { profileShare, shardFixtures } from './profile-share.js';
import { Progress } from './progress.js';
import type { RunConfig } from './run-config.js';
import type { ResolvedTarget } from './run-target.js';
import type { WorkerJob } from './workers/messages.js';
import { runWorkerPool } from './workers/worker-pool.js';

export interface RunOutcome {
  exitCode: number;
  report: Report;
  outDir: string;
}

/** `reports/<profile>-<UTC stamp>` unless --out names the folder. */
export function defaultRunId(profileName: string, now: Date): string {
  return `${profileName}-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}`;
}

/** `auto`: one driver per core, less one for the parent (and the embedded target, if any). */
export function resolveDriverWorkers(workers: number | 'auto'): number {
  return workers === 'auto' ? Math.max(1, availableParallelism() - 1) : workers;
}

/** The share of participants and load for process `w` of `workers`, inside shard `shard`. */
function jobFor(config: RunConfig, target: ResolvedTarget, w: number, workers: number): WorkerJob {
  const shard: ShardInfo = config.shard ?? { index: 0, count: 1 };
  const parts = shard.count * workers;
  return {
    workerIndex: w,
    profile: profileShare(config.profile, parts),
    fixtures: shardFixtures(target.fixtures, config.profile.chatStreams.participants, { index: shard.index + shard.count * w, count: parts }),
    targetUrl: target.url,
    keepAlive: target.keepAlive,
    secrets: secretsSnapshot(),
  };
}

export interface SessionOptions {
  config: RunConfig;
  target: ResolvedTarget;
  outDir: string;
  stop: AbortController;
  isInterrupted: () => boolean;
  stderr: NodeJS.WriteStream;
}

/** One measured session against an already resolved, reachable target; writes the report folder. */
export async function runSession({ config, target, outDir, stop, isInterrupted, stderr }: SessionOptions): Promise<RunOutcome> {
  const { profile } = config;
  const startedAt = new Date();
  await mkdir(outDir, { recursive: true });
  const workers = resolveDriverWorkers(config.workers);
  const jobs = Array.from({ length: workers }, (_, w) => jobFor(config, target, w, workers));
  const participants = jobs.reduce((n, job) => n + job.fixtures.participants.length, 0);
  const progress = new Progress({ quiet: config.quiet, stream: stderr, targetStreams: participants, durationMs: profile.durationMs });
  progress.say(
    `coachbench ${profile.name}: ${target.embedded ? 'embedded target' : 'target'} ${target.url}, ${participants} participants` +
      `${workers > 1 ? ` in ${workers} workers` : ''}, ${Math.round(profile.durationMs / 1_000)} s → ${outDir}`,
  );
  const collector = new IntervalCollector({
    hlogPath: join(outDir, 'histograms.hlog'),
    startEpochMs: startedAt.getTime(),
    onInterval: (point, total) => progress.update(point, total),
  });
  const sink = collector.ingest.bind(collector);
  const warnings: string[] = [];
  let rssBytes: number;
  let durationMs: number;
  let failedByPolicy = false;
  let workerSummaries: Report['workers'];
  if (workers === 1) {
    const job = jobs[0]!;
    ({ rssBytes, durationMs } = await runScenarios({ ...job, scenarios: scenariosFor(job.profile), stop, sink }));
  } else {
    const pool = await runWorkerPool(jobs, profile.workers.onWorkerExit, stop, sink);
    ({ rssBytes, durationMs, failedByPolicy } = pool);
    workerSummaries = pool.workers;
    warnings.push(...pool.warnings);
  }
  await collector.close();
  progress.done();
  const interrupted = isInterrupted();
  const report = buildReport(collector.total, {
    runId: defaultRunId(profile.name, startedAt),
    startedAt,
    endedAt: new Date(),
    durationMs,
    interrupted,
    target: { url: target.url, embedded: target.embedded !== null, ...(target.embedded ? { faults: profile.target.faults } : {}) },
    profile,
    keepAlive: target.keepAlive,
    shard: config.shard,
    processes: workers,
    rssBytes,
    timeseries: collector.timeseries.toArray(),
    warnings,
    thresholds: config.thresholds,
  });
  if (workerSummaries) report.workers = workerSummaries;
  // A dead worker under the `fail` policy fails the run even if its share's checks held.
  if (failedByPolicy) report.verdict = 'fail';
  await writeReportFiles(outDir, report);
  return { exitCode: exitCodeOf(report, interrupted), report, outDir };
}

export function exitCodeOf(report: Report, interrupted: boolean): number {
  return interrupted ? ExitCode.interrupted : report.verdict === 'pass' ? ExitCode.ok : ExitCode.failed;
}
