/**
 * One measured session against an already resolved, reachable target: this process (or N
 * driver workers) runs the scenarios, the interval collector keeps the totals, and the
 * report folder is written. A run is one session; a capacity search is one per step.
 */

import { rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { runPlanOf } from '../contract/profile/run-plan.js';
import type { AbortInfo, Report, ShardInfo, TransportInfo } from '../contract/report.js';
import { proxyFor, shownProxy } from '../engine/proxy-route.js';
import type { Transport } from '../engine/transport.js';
import { IntervalCollector } from '../metrics/interval-collector.js';
import type { MetricSet } from '../metrics/metric-set.js';
import { metricView } from '../metrics/metric-view.js';
import { ThresholdMonitor } from '../metrics/threshold-monitor.js';
import { parseThresholds } from '../metrics/thresholds.js';
import { buildReport, type ReportContext, reportPlan } from '../report/build-report.js';
import { describeAbort } from '../report/describe-abort.js';
import { formatDuration } from '../util/duration.js';
import { ExitCode } from '../util/errors.js';
import { makeDirs } from '../util/make-dirs.js';
import { escapeInvisible, terminalText } from '../util/printable.js';
import { secretsSnapshot } from '../util/redact.js';
import { describeSystemError } from '../util/system-error.js';
import { closedModelHttpNote } from './closed-model-http.js';
import type { LiveOutputs } from './outputs/live-outputs.js';
import { judgeLive } from './outputs/live-verdict.js';
import { checkInFlightSplits, fixturesCap, profileShare, shardFixtures } from './profile-share.js';
import { Progress } from './progress.js';
import { RecentIntervalEnds } from './recent-interval-ends.js';
import type { RunConfig } from './run-config.js';
import type { ResolvedTarget } from './run-target.js';
import { type ReportMaterial, saveReport } from './save-report.js';
import { StoppedBeforeLoad, type StopSignal } from './signals.js';
import { refuseLateStart, waitUntil } from './start-at.js';
import type { WorkerJob } from './workers/messages.js';
import { runDriver } from './workers/run-driver.js';
import { runWorkerPool } from './workers/worker-pool.js';

export interface RunOutcome {
  exitCode: number;
  report: Report;
  /** The folder holding report.json: the report folder, its fallback when that could not be written, or null when neither could. */
  outDir: string | null;
  /** What `report` was built of (its fallback warning included): a late stop builds it again from this (settleLateStop). */
  written: ReportMaterial;
}

/** A session's outcome and what buildReport made its report of: a capacity search builds its report from its knee step's. */
export interface SessionOutcome extends RunOutcome {
  built: { total: MetricSet; inputs: ReportContext };
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
  const part = shard.index + shard.count * w;
  return {
    workerIndex: w,
    arrivalStream: part,
    profile: profileShare(config.profile, part, parts),
    fixtures: shardFixtures(target.fixtures, config.profile.chatStreams.participants, { index: part, count: parts }),
    targetUrl: target.url,
    keepAlive: target.keepAlive,
    secrets: secretsSnapshot(),
    startAtMs: config.startAtMs,
    transport: target.transport,
    credentials: config.credentials,
  };
}

export interface SessionOptions {
  config: RunConfig;
  target: ResolvedTarget;
  outDir: string;
  stop: AbortController;
  /** Aborted by a stop signal (not by the run's own end): drains under way end soon (docs/design.md §2.8). */
  hurry?: AbortSignal;
  /** The signal that stopped the run, or null while none has. */
  stoppedBy: () => StopSignal | null;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WriteStream;
  /** Live outputs (Prometheus, OTLP, dashboard) fed each merged interval; started once per run. */
  outputs?: LiveOutputs;
  /** Where inside the fallback folder this session's report goes if its folder is lost (a capacity step's `steps/NN-LOAD`). */
  fallbackUnder?: string;
}

/**
 * The folder for histograms.hlog, or null when it cannot be made (a capacity step's folder
 * on a full disk): the log is a by-product, the run goes on without it.
 */
async function hlogPathIn(outDir: string, warn: (text: string) => void): Promise<string | null> {
  try {
    await makeDirs(outDir);
    return join(outDir, 'histograms.hlog');
  } catch (error) {
    warn(`histograms.hlog could not be created in ${outDir} (${describeSystemError(error)}): no interval histogram log for this run`);
    return null;
  }
}

/** One measured session against an already resolved, reachable target; writes the report folder. */
export async function runSession({
  config,
  target,
  outDir,
  stop,
  hurry,
  stoppedBy,
  stdout,
  stderr,
  outputs,
  fallbackUnder,
}: SessionOptions): Promise<SessionOutcome> {
  const { profile } = config;
  // The run's clock starts at --start-at when one is given: every shard's intervals line up.
  if (config.startAtMs !== null) refuseLateStart(config.startAtMs, Date.now());
  const startedAt = new Date(config.startAtMs ?? Date.now());
  const workers = resolveDriverWorkers(config.workers);
  const shards = config.shard?.count ?? 1;
  if (workers > 1) checkInFlightSplits(profile, workers * shards, shards > 1 ? `--workers ${workers} in each of ${shards} shards` : `--workers ${workers}`);
  const jobs = Array.from({ length: workers }, (_, w) => jobFor(config, target, w, workers));
  const participants = jobs.reduce((n, job) => n + job.fixtures.participants.length, 0);
  // Fewer participants in the fixtures file than the profile asks for: the run holds what there is, and says so once.
  const cap = fixturesCap(profile, target.fixtures.participants.length);
  const planContext = { shard: config.shard, ...(cap ? { participantsCap: cap.participants } : {}) };
  const plan = reportPlan(profile, planContext);
  const progress = new Progress({
    quiet: config.quiet,
    stream: stderr,
    plan,
    streamsPerParticipant: profile.chatStreams.mainStream ? 2 : 1,
    durationMs: profile.durationMs,
    plainEveryMs: config.progressEveryMs,
  });
  progress.say(
    `coachbench ${profile.name}: ${target.embedded ? 'embedded target' : 'target'} ${target.url}, ${participants} participants` +
      `${workers > 1 ? ` in ${workers} workers` : ''}, ${formatDuration(profile.durationMs)} → ${outDir}`,
  );
  const httpNote = closedModelHttpNote(profile, target.transport.http, target.url);
  if (httpNote !== null) progress.say(`coachbench: ${httpNote}`);
  const warnings: string[] = [];
  // Said at once (a soak is long) and kept in the report; printed even with --quiet.
  const warn = (text: string): void => {
    warnings.push(text);
    progress.done();
    stderr.write(terminalText(`coachbench: warning: ${escapeInvisible(text)}\n`));
  };
  if (cap) warn(cap.reason);
  if (target.transport.tls.insecure && target.url.startsWith('https:')) {
    warn('--insecure: the target certificate is NOT verified; this run says nothing about the TLS a real client would see');
  }
  const hlogPath = await hlogPathIn(outDir, warn);
  outputs?.beginSession(
    {
      profileName: profile.name,
      targetUrl: target.url,
      participants,
      durationMs: profile.durationMs,
      thresholds: config.thresholds,
      plannedParticipants: plan.scenarios.find((scenario) => scenario.unit === 'participants')?.stages ?? [],
      streamsPerParticipant: profile.chatStreams.mainStream ? 2 : 1,
      ...(profile.requests ? { requests: profile.requests } : {}),
    },
    (total) =>
      judgeLive(total, { config, target, processes: workers, startedAt, participants, ...planContext, timeseries: () => collector.timeseries.toArray() }),
  );
  const monitor = thresholdMonitorFor(config, target, { processes: workers, participants }, (info) => {
    // Said at once, even with --quiet: the run ends early and the reader should know why.
    progress.done();
    stderr.write(terminalText(`coachbench: abortOnFail: ${escapeInvisible(describeAbort(info))}\n`));
    stop.abort();
  });
  const collector = new IntervalCollector({
    hlogPath,
    startEpochMs: config.startAtMs,
    warmupSec: (profile.warmupMs ?? 0) / 1_000,
    afterWarmup: (interval, startSec, endSec) => monitor.ingest(interval, startSec, endSec),
    onInterval: (point, total, interval) => {
      progress.update(point, total);
      outputs?.publish(point, interval, total);
    },
    onHlogError: (error, afterSec) =>
      warn(
        `histograms.hlog could not be written from about ${Math.round(afterSec)} s into the run (${describeSystemError(error)}): ` +
          'the log lacks the intervals after that; the report holds every interval',
      ),
  });
  const intervalEnds = new RecentIntervalEnds();
  const sink = (interval: MetricSet, startSec: number, endSec: number, index: number): void => {
    intervalEnds.note(index, endSec);
    collector.ingest(interval, startSec, endSec);
  };
  let rssBytes: number;
  let durationMs: number;
  /** When the load stopped (the first driver process to stop it), before the drain: where load.achieved's window ends. */
  let loadEndMs: number | null;
  /** The last interval every driver process closed before its stop (-1: none), by index. */
  let closedIndex: number | null;
  let failedByPolicy = false;
  let workerSummaries: Report['workers'];
  let workersReportedUntilMs: Record<number, number> | undefined;
  let workersKilledAfterSignal: number[] | undefined;
  /** Whether the load began: false when a stop came during the --start-at wait. */
  let loadBegan = config.startAtMs === null;
  /** Ready: wait for --start-at (at once without one); resolves with when the load starts. */
  const startLoad = async (): Promise<number> => {
    if (config.startAtMs === null) return Date.now();
    progress.say(`coachbench: ready; load starts at ${startedAt.toISOString()} (--start-at)`);
    await waitUntil(config.startAtMs, stop.signal);
    loadBegan = !stop.signal.aborted;
    return Date.now();
  };
  let actualStartMs: number;
  if (workers === 1) {
    const job = jobs[0]!;
    let startMs = 0;
    const driver = await runDriver({
      job,
      stop,
      hurry,
      sink,
      beforeLoad: async () => {
        startMs = await startLoad();
      },
    });
    actualStartMs = startMs;
    ({ rssBytes, durationMs, loadEndMs, closedIndex } = driver);
    if (driver.failure !== null) {
      warn(driver.failure);
      failedByPolicy = true;
    }
  } else {
    // Each worker waits for the instant on its own clock (messages.ts startAtMs); the parent
    // waits beside them to note when it came.
    const running = runWorkerPool(jobs, profile.workers.onWorkerExit, stop, sink, hurry);
    actualStartMs = await startLoad();
    const pool = await running;
    ({ rssBytes, durationMs, failedByPolicy, loadEndMs, closedIndex } = pool);
    workerSummaries = pool.workers;
    workersReportedUntilMs = pool.reportedUntilMs;
    workersKilledAfterSignal = pool.killedAfterSignal;
    warnings.push(...pool.warnings);
  }
  await collector.close();
  monitor.finish();
  progress.done();
  const stopSignal = stoppedBy();
  if (!loadBegan && stopSignal !== null) {
    // Stopped at the --start-at barrier: nothing was measured, so no report (docs/design.md §2.8).
    if (hlogPath !== null) await rm(hlogPath, { force: true });
    throw new StoppedBeforeLoad(stopSignal);
  }
  const interrupted = stopSignal !== null;
  const inputs: ReportContext = {
    runId: defaultRunId(profile.name, startedAt),
    startedAt,
    endedAt: new Date(),
    durationMs,
    ...(loadEndMs !== null ? { loadEndMs, closedBeforeStopMs: intervalEnds.endMsOf(closedIndex) } : {}),
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
    ...((profile.warmupMs ?? 0) > 0 ? { thresholdTotal: monitor.total } : {}),
    windowResults: monitor.windowResults(),
    stageTotals: monitor.stages(),
    ...(monitor.aborted ? { aborted: monitor.aborted } : {}),
    participants,
    ...(cap ? { participantsCap: cap.participants } : {}),
    workers: workerSummaries,
    ...(workersReportedUntilMs ? { workersReportedUntilMs } : {}),
    ...(workersKilledAfterSignal?.length ? { workersKilledAfterSignal } : {}),
    // A dead worker under the `fail` policy fails the run even if its share's checks held.
    workerLost: failedByPolicy,
    start: config.startAtMs === null ? undefined : { plannedMs: config.startAtMs, actualMs: actualStartMs },
    transport: transportInfo(target.transport, target.url),
    ...proxyInput(target.transport, target.url),
    labels: config.labels,
    traceUrl: config.traceUrl,
  };
  const saved = await saveReport(outDir, { total: collector.total, inputs }, { stdout, stderr }, fallbackUnder);
  return {
    exitCode: exitCodeOf(saved.report, stoppedBy(), saved.dir !== null),
    report: saved.report,
    outDir: saved.dir,
    written: saved.material,
    built: { total: collector.total, inputs },
  };
}

/** The proxy the run went through, by its origin, for the checks to name (docs/design.md §2.12). */
function proxyInput(transport: Transport, url: string): { proxy?: string } {
  const proxy = proxyFor(transport, url);
  return proxy === null ? {} : { proxy: shownProxy(proxy) };
}

/** What report.json says of the transport: settings and header names, never values or keys. */
function transportInfo(transport: Transport, url: string): Omit<TransportInfo, 'protocols'> {
  const { tls, headers, proxy } = transport;
  return {
    tls: url.startsWith('https:'),
    insecure: tls.insecure,
    extraCas: tls.ca.length,
    clientCertificate: tls.cert !== null,
    servername: tls.servername,
    proxy: proxy.mode,
    headers: Object.keys(headers).filter((name) => name !== 'user-agent'),
    userAgent: headers['user-agent'] ?? '',
    http: transport.http,
  };
}

/** Judges sliding-window and abortOnFail thresholds during the run, on this run's summaries. */
function thresholdMonitorFor(
  config: RunConfig,
  target: ResolvedTarget,
  driven: { processes: number; participants: number },
  onAbort: (info: AbortInfo) => void,
): ThresholdMonitor {
  const context = { profile: config.profile, keepAlive: target.keepAlive, ...driven, rssBytes: 0 };
  return new ThresholdMonitor({
    thresholds: parseThresholds(config.thresholds, 'thresholds'),
    abortOnFail: config.profile.abortOnFail ?? [],
    view: (set) => metricView(set, context),
    onAbort,
    stages: runPlanOf(config.profile).windows,
  });
}

/**
 * The exit code of docs/design.md §2: 143 or 130 when a signal stopped the run, else the
 * verdict's. A report written nowhere (report folder and fallback both lost) never exits 0:
 * CI must not read "pass" for a run whose report is gone.
 */
export function exitCodeOf(report: Report, stoppedBy: StopSignal | null, reportWritten = true): number {
  if (stoppedBy === 'SIGTERM') return ExitCode.terminated;
  if (stoppedBy === 'SIGINT') return ExitCode.interrupted;
  return report.verdict === 'pass' && reportWritten ? ExitCode.ok : ExitCode.failed;
}

/**
 * A signal that came while the report was being built or written, or while the target and
 * live outputs closed after it, still stops the run (docs/design.md §2.8): the report, written
 * as not interrupted, is written again saying it was, so report.json, its views and the
 * printed line agree with the exit code (130/143). Its figures are those already measured.
 */
export async function settleLateStop(
  outcome: RunOutcome,
  stoppedBy: StopSignal | null,
  streams: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<RunOutcome> {
  if (stoppedBy === null || outcome.report.interrupted) return outcome;
  const written = { total: outcome.written.total, inputs: { ...outcome.written.inputs, interrupted: true } };
  if (outcome.outDir === null) {
    const report = buildReport(written.total, written.inputs);
    return { report, outDir: null, written, exitCode: exitCodeOf(report, stoppedBy, false) };
  }
  const saved = await saveReport(outcome.outDir, written, streams);
  return { exitCode: exitCodeOf(saved.report, stoppedBy, saved.dir !== null), report: saved.report, outDir: saved.dir, written: saved.material };
}
