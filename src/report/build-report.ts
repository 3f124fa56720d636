/**
 * Assembles report.json from a run's total MetricSet and its context. The same function
 * serves a run, a parent merging its workers, and `coachbench merge` of shard reports:
 * scenarios, checks and thresholds are always re-derived from the raw totals.
 */

import type { KeepAliveExpectation } from '../contract/keep-alive.js';
import { drivenPlan } from '../contract/profile/driven-plan.js';
import type { Profile } from '../contract/profile/profile.js';
import { runPlanOf } from '../contract/profile/run-plan.js';
import { scaleStages } from '../contract/profile/stage-plan.js';
import {
  type AbortInfo,
  REPORT_SCHEMA_VERSION,
  type Report,
  type ShardInfo,
  type TargetInfo,
  type ThresholdResult,
  type TimeseriesPoint,
} from '../contract/report.js';
import { buildAuthSummary } from '../metrics/auth-summary.js';
import { buildChatSummary } from '../metrics/chat-summary.js';
import { evaluateChecks } from '../metrics/checks/evaluate-checks.js';
import { requestLoads } from '../metrics/checks/request-loads.js';
import { coreChecks, judgeVerdict } from '../metrics/checks/verdict.js';
import { buildGeneratorSummary } from '../metrics/generator-summary.js';
import type { MetricSet } from '../metrics/metric-set.js';
import { metricView } from '../metrics/metric-view.js';
import type { StageTotal } from '../metrics/threshold-monitor.js';
import { evaluateThresholds } from '../metrics/thresholds.js';
import { cutAtEndName } from '../metrics/throughput-extra-names.js';
import { buildPhotoUploadSummary, buildTagLinkSummary } from '../metrics/throughput-summary.js';
import { VERSION } from '../util/version.js';
import { summarizeStage } from './stage-summaries.js';

export interface ReportContext {
  runId: string;
  startedAt: Date;
  endedAt: Date;
  durationMs: number;
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
   * Driver workers that died under `workers.onWorkerExit: continue`: the share of the
   * participants and of the rates they drove. The policy accepts their loss, so load.achieved
   * judges the rest of the plan.
   */
  lost?: { participantShare: number; rateShare: number; workers: number };
}

/** The plan without the share of workers that died under `continue` (load.achieved judges what the policy kept). */
function keptPlan(plan: ReturnType<typeof runPlanOf>, lost: NonNullable<ReportContext['lost']>): ReturnType<typeof runPlanOf> {
  return {
    ...plan,
    scenarios: plan.scenarios.map((scenario) => ({
      ...scenario,
      stages: scaleStages(scenario.stages, 1 - (scenario.unit === 'participants' ? lost.participantShare : lost.rateShare)),
    })),
  };
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
  const judgedPlan = ctx.lost ? keptPlan(plan, ctx.lost) : plan;
  const load = {
    plan: judgedPlan,
    timeseries: ctx.timeseries,
    warmupMs: profile.warmupMs ?? 0,
    runMs: ctx.durationMs,
    streamsPerParticipant: profile.chatStreams.mainStream ? 2 : 1,
    requests: requestLoads(total, profile, judgedPlan, ctx.durationMs, ctx.shard?.count ?? 1),
    ...(ctx.lost ? { note: `judged without the ${ctx.lost.workers} driver worker(s) that died under workers.onWorkerExit: continue` } : {}),
  };
  const checks = evaluateChecks({ total, chat: chatStreams, generator, load });
  const warnings = [...ctx.warnings];
  // A p99 within bounds can hide one long stall; cadence and latency around it describe the driver.
  if (chatStreams && generator.eventLoopDelayMs.max > ctx.keepAlive.toleranceMs) {
    warnings.push(
      `the driver's event loop stalled for up to ${generator.eventLoopDelayMs.max} ms (more than the ${ctx.keepAlive.toleranceMs} ms KEEP_ALIVE tolerance): gaps and latencies measured during that stall include it; see eventLoopDelayP99Ms in the time series`,
    );
  }
  const cut = (['photoUpload', 'tagLink', 'probes'] as const).map((name) => [name, total.count(cutAtEndName(name))] as const).filter(([, n]) => n > 0);
  if (cut.length > 0) {
    warnings.push(
      `requests still unanswered when the drain after the run's end ran out were cut (${cut.map(([name, n]) => `${name} ${n}`).join(', ')}): ` +
        'they count as neither requests, nor errors, nor check evidence',
    );
  }
  const report: Report = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'coachbench', version: VERSION },
    runId: ctx.runId,
    startedAt: ctx.startedAt.toISOString(),
    endedAt: ctx.endedAt.toISOString(),
    durationMs: Math.round(ctx.durationMs),
    interrupted: ctx.interrupted,
    verdict: 'pass',
    coreChecks: coreChecks(profile),
    target: ctx.target,
    profile: { ...profile, name: profile.name } as Report['profile'],
    shard: ctx.shard,
    plan,
    checks,
    thresholds: [],
    scenarios: {
      chatStreams,
      photoUpload: profile.photoUpload.enabled ? buildPhotoUploadSummary(total, profile.photoUpload) : null,
      tagLink: profile.tagLink.enabled ? buildTagLinkSummary(total, profile.tagLink) : null,
    },
    generator,
    timeseries: ctx.timeseries,
    warnings,
    metrics: total.encode(),
  };
  if (auth) report.auth = auth;
  if (ctx.mergedFrom) report.mergedFrom = ctx.mergedFrom;
  const viewContext = { profile, participants, keepAlive: ctx.keepAlive, processes: ctx.processes, rssBytes: ctx.rssBytes };
  const judged = ctx.thresholdTotal ? metricView(ctx.thresholdTotal, viewContext) : report;
  report.thresholds = evaluateThresholds(ctx.thresholds, judged, ctx.windowResults);
  if (ctx.stageTotals && ctx.stageTotals.length > 0) {
    report.stages = ctx.stageTotals.map((stage) => summarizeStage(stage, metricView(stage.set, viewContext)));
  }
  report.verdict = judgeVerdict(report.checks, report.thresholds, report.coreChecks ?? []);
  if (ctx.aborted) {
    report.aborted = ctx.aborted;
    // The threshold that stopped the load failed, whatever the rest of the run looked like.
    report.verdict = 'fail';
  }
  return report;
}
