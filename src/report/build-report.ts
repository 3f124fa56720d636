/**
 * Assembles report.json from a run's total MetricSet and its context. The same function
 * serves a run, a parent merging its workers, a capacity search and `coachbench merge` of
 * shard reports: scenarios, checks, thresholds and the verdict are always re-derived from the
 * raw totals. It is the report's only author (docs/design.md §0): what a caller knows beside
 * the total comes in through ReportContext, and nothing sets a report field after it.
 */

import type { KeepAliveExpectation } from '../contract/keep-alive.js';
import { drivenPlan, integrateStages } from '../contract/profile/driven-plan.js';
import type { Profile } from '../contract/profile/profile.js';
import { runPlanOf } from '../contract/profile/run-plan.js';
import { scaleStagesFrom } from '../contract/profile/stage-plan.js';
import {
  type AbortInfo,
  type CapacityResult,
  type GeneratorSummary,
  REPORT_SCHEMA_VERSION,
  type Report,
  type ShardInfo,
  type StartInfo,
  type TargetInfo,
  type ThresholdResult,
  type TimeseriesPoint,
  type TransportInfo,
} from '../contract/report.js';
import { buildAuthSummary } from '../metrics/auth-summary.js';
import { buildChatSummary } from '../metrics/chat-summary.js';
import { evaluateChecks } from '../metrics/checks/evaluate-checks.js';
import { requestLoads } from '../metrics/checks/request-loads.js';
import { coreChecks, judgeVerdict } from '../metrics/checks/verdict.js';
import { buildGeneratorSummary } from '../metrics/generator-summary.js';
import type { MetricSet } from '../metrics/metric-set.js';
import { metricView } from '../metrics/metric-view.js';
import { requestKindKey } from '../metrics/names.js';
import { protocolsOf } from '../metrics/protocols-summary.js';
import type { StageTotal } from '../metrics/threshold-monitor.js';
import { evaluateThresholds } from '../metrics/thresholds.js';
import { cutAtEndName } from '../metrics/throughput-extra-names.js';
import { buildPhotoUploadSummary, buildRequestsSummary, buildTagLinkSummary } from '../metrics/throughput-summary.js';
import { VERSION } from '../util/version.js';
import { type ShardChecks, withShardFailures } from './shard-checks.js';
import { summarizeStage } from './stage-summaries.js';

export interface ReportContext {
  runId: string;
  startedAt: Date;
  endedAt: Date;
  durationMs: number;
  /**
   * When the load stopped (ms of the run: the plan's end, or the stop), before the drain that
   * durationMs includes; load.achieved judges up to it. Absent: durationMs (a merge of shards).
   */
  loadEndMs?: number;
  /** With loadEndMs: the end of the last interval every driver process closed before its stop (0: none). */
  closedBeforeStopMs?: number;
  interrupted: boolean;
  target: TargetInfo;
  profile: Profile;
  keepAlive: KeepAliveExpectation;
  shard: ShardInfo | null;
  processes: number;
  rssBytes: number;
  timeseries: TimeseriesPoint[];
  warnings: string[];
  thresholds: string[];
  mergedFrom?: string[];
  /** What whole-run thresholds are judged on when the profile has a warm-up: the totals after it. */
  thresholdTotal?: MetricSet;
  /** Sliding-window and stage thresholds as judged during the run (ThresholdMonitor), by expression. */
  windowResults?: ReadonlyMap<string, ThresholdResult>;
  /** Each named stage's intervals after the warm-up, summed (the per-stage tables). */
  stageTotals?: readonly StageTotal[];
  /** Set when an abortOnFail threshold stopped the load. */
  aborted?: AbortInfo;
  /**
   * Participants this report's processes held: the fixtures' participants after the cap and
   * the shard's split (docs/design.md §2.11). Absent: the profile's.
   */
  participants?: number;
  /** Participants the whole run could hold, when the fixtures file has fewer than the profile asks (the plan is capped there). */
  participantsCap?: number;
  /**
   * `--workers` runs: each driver process's share and counters (null: it died). Workers that
   * died under `workers.onWorkerExit: continue` take their share of the plan with them: the
   * policy accepts their loss, so load.achieved judges the rest.
   */
  workers?: Report['workers'];
  /**
   * Of each driver worker that died, by index: the end of its last interval merged (ms of the
   * run). What it drove until then is in the total, so its share of the plan is kept until then.
   */
  workersReportedUntilMs?: Readonly<Record<number, number>>;
  /**
   * Driver workers killed because they had not ended soon enough after a stop signal, by index:
   * under either policy their share is left out of the plan after their last interval, as
   * `continue` leaves a dead worker's, and their loss fails nothing (docs/design.md §7).
   */
  workersKilledAfterSignal?: readonly number[];
  /** A driver worker died under `workers.onWorkerExit: fail`: the run fails whatever its checks say. */
  workerLost?: boolean;
  /** `--start-at` runs: when load was to start and when this process got there (epoch ms). */
  start?: { plannedMs: number; actualMs: number };
  /** How the run reached its target; the protocols its connections spoke are read from the total. */
  transport?: Omit<TransportInfo, 'protocols'>;
  /** The proxy (its origin) the run reached its target through, when one applied: the stream checks name it beside the target. */
  proxy?: string;
  /** `run --label`s (an empty record is left out). */
  labels?: Record<string, string>;
  /** `run --trace-url`. */
  traceUrl?: string;
  /** A merge: each shard's own checks (a check failed in any shard fails in the merged report). */
  shardChecks?: readonly ShardChecks[];
  /** A merge: a shard's generator saturated (its tail may drown in its peers' samples). */
  shardSaturated?: boolean;
  /** A merge misses shards, or holds one that was interrupted or failed outside its checks: the verdict is fail. */
  shardsFailed?: boolean;
  /** A merge of `--start-at` shards: each one's start and their spread. */
  shardStarts?: Report['shardStarts'];
  /**
   * A capacity search: the report is the knee's step (this context's) with the search's
   * result and profile; no load that held its SLOs fails it.
   */
  capacity?: { result: CapacityResult; profile: Profile };
}

/** One driver worker that died, when the `continue` policy accepts its loss: its share of the load, and until when it drove it. */
interface LostWorker {
  participantShare: number;
  rateShare: number;
  /** The end of its last interval in the total (ms of the run); 0 when unknown: its share is left out of the whole plan. */
  untilMs: number;
}

function lostWorkers(
  workers: Report['workers'],
  policy: string,
  reportedUntilMs: Readonly<Record<number, number>> = {},
  killedAfterSignal: readonly number[] = [],
): LostWorker[] | null {
  const dead = (workers ?? []).filter((worker) => worker.counters === null && (policy === 'continue' || killedAfterSignal.includes(worker.index)));
  if (dead.length === 0 || !workers) return null;
  const participants = workers.reduce((n, worker) => n + worker.participants, 0);
  return dead.map((worker) => ({
    participantShare: participants > 0 ? worker.participants / participants : 0,
    rateShare: 1 / workers.length,
    untilMs: reportedUntilMs[worker.index] ?? 0,
  }));
}

/** What load.achieved's detail says of the workers left out of the plan. */
function lostNote(lost: number, killedAfterSignal: number, policy: string): string {
  if (killedAfterSignal === 0) return `judged without the ${lost} driver worker(s) that died under workers.onWorkerExit: continue, after their last interval`;
  const killed = `the ${killedAfterSignal} driver worker(s) killed for not ending soon enough after the stop signal`;
  const died = lost - killedAfterSignal;
  return `judged without ${killed}${died > 0 && policy === 'continue' ? ` and the ${died} that died under workers.onWorkerExit: continue` : ''}, after their last interval`;
}

/** When load was planned to start (--start-at) and when this process got there. */
function startInfo({ plannedMs, actualMs }: NonNullable<ReportContext['start']>): StartInfo {
  return { plannedAt: new Date(plannedMs).toISOString(), actualAt: new Date(actualMs).toISOString(), skewMs: actualMs - plannedMs };
}

/**
 * The plan without the share of workers that died under `continue` (load.achieved judges what
 * the policy kept), each share left out from the end of the worker's last interval in the total:
 * what it drove before is counted, so it is judged against its plan until then, and cannot
 * cover what the others fell short by.
 */
function keptPlan(plan: ReturnType<typeof runPlanOf>, lost: readonly LostWorker[]): ReturnType<typeof runPlanOf> {
  const byTime = [...lost].sort((a, b) => a.untilMs - b.untilMs);
  return {
    ...plan,
    scenarios: plan.scenarios.map((scenario) => {
      const shareOf = (worker: LostWorker): number => (scenario.unit === 'participants' ? worker.participantShare : worker.rateShare);
      let left = 1;
      const steps = byTime.map((worker) => {
        left -= shareOf(worker);
        return { fromMs: worker.untilMs, factor: Math.max(0, left) };
      });
      return { ...scenario, stages: scaleStagesFrom(scenario.stages, steps) };
    }),
  };
}

/** Open-model arrivals the lost workers were planned until their last interval: their scheduled slots, counted only at a schedule's end, died with them. */
function lostScheduled(plan: ReturnType<typeof runPlanOf>, lost: readonly LostWorker[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const scenario of plan.scenarios) {
    if (scenario.unit !== 'requests/s') continue;
    out[scenario.scenario] = lost.reduce((n, worker) => n + integrateStages(scenario.stages, 0, worker.untilMs) * worker.rateShare, 0);
  }
  return out;
}

/** The run's plan as this report's processes drove it: capped at the fixtures' participants, a shard's share. */
export function reportPlan(profile: Profile, ctx: Pick<ReportContext, 'participantsCap' | 'shard'>): ReturnType<typeof runPlanOf> {
  return drivenPlan(runPlanOf(profile), { participants: ctx.participantsCap ?? null, shard: ctx.shard });
}

export function buildReport(total: MetricSet, ctx: ReportContext): Report {
  const { profile } = ctx;
  const plan = reportPlan(profile, ctx);
  const participants = ctx.participants ?? profile.chatStreams.participants;
  const chatStreams = profile.chatStreams.enabled ? buildChatSummary(total, { participants, keepAlive: ctx.keepAlive }) : null;
  const generator = buildGeneratorSummary(total, {
    maxEventLoopDelayP99Ms: profile.generator.maxEventLoopDelayP99Ms,
    processes: ctx.processes,
    rssBytes: ctx.rssBytes,
  });
  const auth = buildAuthSummary(total);
  const lost = lostWorkers(ctx.workers, profile.workers.onWorkerExit, ctx.workersReportedUntilMs, ctx.workersKilledAfterSignal);
  const judgedPlan = lost ? keptPlan(plan, lost) : plan;
  const load = {
    plan: judgedPlan,
    timeseries: ctx.timeseries,
    warmupMs: profile.warmupMs ?? 0,
    runMs: ctx.loadEndMs ?? ctx.durationMs,
    ...(ctx.closedBeforeStopMs !== undefined ? { closedBeforeStopMs: ctx.closedBeforeStopMs } : {}),
    streamsPerParticipant: profile.chatStreams.mainStream ? 2 : 1,
    requests: requestLoads(total, profile, judgedPlan, ctx.durationMs, ctx.shard, lost ? lostScheduled(plan, lost) : {}),
    ...(lost ? { note: lostNote(lost.length, ctx.workersKilledAfterSignal?.length ?? 0, profile.workers.onWorkerExit) } : {}),
  };
  const kinds = (profile.requests?.kinds ?? []).filter((kind) => kind.enabled).map((kind) => kind.name);
  const evaluated = evaluateChecks({ total, chat: chatStreams, generator, load, proxy: ctx.proxy ?? null, kinds });
  const checks = ctx.shardChecks ? withShardFailures(evaluated, ctx.shardChecks) : evaluated;
  const scenarios: Report['scenarios'] = {
    chatStreams,
    photoUpload: profile.photoUpload.enabled ? buildPhotoUploadSummary(total, profile.photoUpload) : null,
    tagLink: profile.tagLink.enabled ? buildTagLinkSummary(total, profile.tagLink) : null,
    ...(profile.requests ? { requests: buildRequestsSummary(total, profile.requests) } : {}),
  };
  const viewContext = { profile, participants, keepAlive: ctx.keepAlive, processes: ctx.processes, rssBytes: ctx.rssBytes };
  const judged = ctx.thresholdTotal ? metricView(ctx.thresholdTotal, viewContext) : { scenarios, generator, ...(auth ? { auth } : {}) };
  const thresholds = evaluateThresholds(ctx.thresholds, judged, ctx.windowResults);
  const core = coreChecks(profile);
  const verdict = judgeVerdict(checks, thresholds, core, {
    aborted: ctx.aborted !== undefined,
    workerLost: ctx.workerLost,
    shardsFailed: ctx.shardsFailed,
    noSustainableLoad: ctx.capacity !== undefined && ctx.capacity.result.maxSustainableLoad === null,
  });
  const shownProfile = ctx.capacity?.profile ?? profile;
  const labels = ctx.labels && Object.keys(ctx.labels).length > 0 ? ctx.labels : undefined;
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'coachbench', version: VERSION },
    runId: ctx.runId,
    startedAt: ctx.startedAt.toISOString(),
    endedAt: ctx.endedAt.toISOString(),
    durationMs: Math.round(ctx.durationMs),
    interrupted: ctx.interrupted,
    verdict,
    coreChecks: core,
    target: ctx.target,
    profile: { ...shownProfile, name: shownProfile.name } as Report['profile'],
    shard: ctx.shard,
    plan,
    checks,
    thresholds,
    scenarios,
    // A merge: a shard that saturated makes the whole run's generator figures suspect.
    generator: ctx.shardSaturated ? { ...generator, saturated: true } : generator,
    timeseries: ctx.timeseries,
    warnings: reportWarnings(total, ctx, generator),
    metrics: total.encode(),
    ...(auth ? { auth } : {}),
    ...(ctx.mergedFrom ? { mergedFrom: ctx.mergedFrom } : {}),
    ...(ctx.stageTotals && ctx.stageTotals.length > 0
      ? { stages: ctx.stageTotals.map((stage) => summarizeStage(stage, metricView(stage.set, viewContext))) }
      : {}),
    ...(ctx.aborted ? { aborted: ctx.aborted } : {}),
    ...(ctx.workers ? { workers: ctx.workers } : {}),
    ...(ctx.start ? { start: startInfo(ctx.start) } : {}),
    ...(ctx.transport ? { transport: { ...ctx.transport, protocols: protocolsOf(total) } } : {}),
    ...(labels ? { labels } : {}),
    ...(ctx.traceUrl !== undefined ? { traceUrl: ctx.traceUrl } : {}),
    ...(ctx.shardStarts ? { shardStarts: ctx.shardStarts } : {}),
    ...(ctx.capacity ? { capacity: ctx.capacity.result } : {}),
  };
}

/** The context's warnings, then what the total itself shows a reader should know. */
function reportWarnings(total: MetricSet, ctx: ReportContext, generator: GeneratorSummary): string[] {
  const warnings = [...ctx.warnings];
  // A p99 within bounds can hide one long stall; cadence and latency around it describe the driver.
  if (ctx.profile.chatStreams.enabled && generator.eventLoopDelayMs.max > ctx.keepAlive.toleranceMs) {
    warnings.push(
      `the driver's event loop stalled for up to ${generator.eventLoopDelayMs.max} ms (more than the ${ctx.keepAlive.toleranceMs} ms KEEP_ALIVE tolerance): gaps and latencies measured during that stall include it; see eventLoopDelayP99Ms in the time series`,
    );
  }
  const kinds = (ctx.profile.requests?.kinds ?? []).map((kind) => requestKindKey(kind.name));
  const cut = [...(['photoUpload', 'tagLink', 'probes'] as const), ...kinds]
    .map((name) => [name, total.count(cutAtEndName(name))] as const)
    .filter(([, n]) => n > 0);
  if (cut.length > 0) {
    warnings.push(
      `requests still unanswered when the drain after the run's end ran out were cut (${cut.map(([name, n]) => `${name} ${n}`).join(', ')}): ` +
        'they count as neither requests, nor errors, nor check evidence',
    );
  }
  if (ctx.capacity?.result.stoppedBecause === 'saturated') {
    warnings.push('the driver saturated before an SLO broke: add --workers or shards and search again');
  }
  return warnings;
}
