/**
 * `coachbench merge`: one report from the shard reports of one run. The raw totals add
 * exactly (counters sum, HDR histograms add bucket by bucket) and every summary, check and
 * threshold is re-derived from them by buildReport; percentiles are never averaged.
 */

import type { Report } from '../../contract/report.js';
import { MetricSet } from '../../metrics/metric-set.js';
import { metricView } from '../../metrics/metric-view.js';
import { judgeStage, type StageTotal } from '../../metrics/threshold-monitor.js';
import { parseThresholds } from '../../metrics/thresholds.js';
import { ConfigError } from '../../util/errors.js';
import { buildReport } from '../build-report.js';
import { type MergePlan, planMerge, type ShardSource, shardLabel } from './merge-compat.js';
import { alignTimeseries } from './merge-timeseries.js';

/** `<profile>-<UTC stamp of the earliest start>-merged`, like a run's folder name. */
function mergedRunId(profileName: string, startedAt: Date): string {
  return `${profileName}-${startedAt
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-merged`;
}

/*
 * Gauges add and time series align on the premise that shards ran side by side. Shards of
 * two different runs (a stale folder on a shared volume) usually break it: say so.
 */
function disjointInTime(shards: readonly ShardSource[]): string | null {
  const byStart = [...shards].sort((a, b) => Date.parse(a.report.startedAt) - Date.parse(b.report.startedAt));
  const firstEnded = [...shards].sort((a, b) => Date.parse(a.report.endedAt) - Date.parse(b.report.endedAt))[0]!;
  const lastStarted = byStart.at(-1)!;
  if (Date.parse(lastStarted.report.startedAt) <= Date.parse(firstEnded.report.endedAt)) return null;
  return (
    `shards did not run side by side: ${shardLabel(lastStarted)} started at ${lastStarted.report.startedAt}, after ${shardLabel(firstEnded)} ended at ${firstEnded.report.endedAt}; ` +
    'their peaks and time series are added as if they had (were they one run?)'
  );
}

/*
 * A shard's thresholds are judged again on the merged data, and its checks are combined
 * below; a fail verdict explained by neither came from elsewhere (a worker that died under
 * the profile's `fail` policy) and must not vanish in the merge.
 */
const failedOutsideChecks = (r: Report): boolean =>
  r.verdict === 'fail' && !r.checks.some((c) => c.status === 'fail') && !r.thresholds.some((t) => t.status === 'fail');

function shardWarnings(plan: MergePlan): string[] {
  const notes: string[] = [];
  if (plan.missing.length > 0) {
    const present = plan.shards.length;
    notes.push(
      `partial merge: ${present} of ${plan.shardCount} shards (missing ${plan.missing.map((i) => `${i}/${plan.shardCount}`).join(', ')}); ` +
        'the load the profile asked for did not run in full, so the verdict is fail whatever the checks say',
    );
  }
  notes.push(...plan.warnings);
  const overlap = disjointInTime(plan.shards);
  if (overlap) notes.push(overlap);
  for (const shard of plan.shards) {
    const label = shardLabel(shard);
    if (shard.report.interrupted) notes.push(`[${label}] was interrupted: its figures cover only the part that ran, so the merged verdict is fail`);
    for (const warning of shard.report.warnings) notes.push(`[${label}] ${warning}`);
    if (failedOutsideChecks(shard.report))
      notes.push(`[${label}] failed for a reason outside its checks and thresholds (see its warnings), so the merged verdict is fail`);
  }
  return notes;
}

/**
 * Merges shard reports of one run into one report. `sources` name the reports (paths) in
 * the same order; they go into `mergedFrom` and into messages. Refuses, with one
 * ConfigError, reports that are not shards of one run (see planMerge). A merge missing
 * shards goes ahead, says so first among the warnings, and its verdict is fail; so is the
 * verdict when a shard was interrupted or failed for a reason outside its checks (a dead worker).
 * Per-process `workers` details stay in the shard reports.
 */
/**
 * Each named stage of the shards, added exactly (their HDR histograms and counters, as the run
 * totals are): a stage threshold is judged on the merged stage as a single run would.
 */
function addStages(reports: readonly Report[]): StageTotal[] {
  const names = [...new Set(reports.flatMap((report) => (report.stages ?? []).map((stage) => stage.name)))];
  return names.map((name) => {
    const set = new MetricSet();
    let intervals = 0;
    let window = { name, startMs: 0, endMs: 0 };
    for (const report of reports) {
      const stage = report.stages?.find((candidate) => candidate.name === name);
      if (!stage) continue;
      set.addEncoded(stage.metrics, true);
      intervals = Math.max(intervals, stage.intervals);
      window = { name, startMs: stage.startSec * 1_000, endMs: stage.endSec * 1_000 };
    }
    return { window, set, intervals };
  });
}

/** Shards started with --start-at: each one's actual start, and the spread between first and last. */
function shardStarts(reports: readonly Report[]): Report['shardStarts'] {
  const started = reports.filter((report) => report.start && report.shard);
  if (started.length === 0) return undefined;
  const actual = started.map((report) => Date.parse(report.start!.actualAt));
  return {
    plannedAt: started[0]!.start!.plannedAt,
    spreadMs: Math.max(...actual) - Math.min(...actual),
    shards: started.map((report) => ({ index: report.shard!.index, actualAt: report.start!.actualAt, skewMs: report.start!.skewMs })),
  };
}

/**
 * The participants the shards held together (each report counts its own, docs/design.md
 * §2.11), no more than the profile's (older shard reports each said the profile's); with
 * every shard present and fewer than the profile asks, the fixtures capped the run there.
 */
function mergedParticipants(profileParticipants: number, reports: readonly Report[], complete: boolean): { participants?: number; participantsCap?: number } {
  if (reports.some((r) => r.scenarios.chatStreams === null)) return {};
  const held = Math.min(
    profileParticipants,
    reports.reduce((sum, r) => sum + r.scenarios.chatStreams!.participants, 0),
  );
  return { participants: held, ...(complete && held < profileParticipants ? { participantsCap: held } : {}) };
}

export function mergeReports(reports: readonly Report[], sources: readonly string[]): Report {
  if (reports.length !== sources.length) throw new ConfigError(`merge: ${reports.length} reports but ${sources.length} source names`);
  const plan = planMerge(reports.map((report, i) => ({ report, source: sources[i]! })));
  const total = new MetricSet();
  // Shards ran side by side: gauges add, time extents take the max (MetricSet.addEncoded).
  for (const shard of plan.shards) total.addEncoded(shard.report.metrics, true);

  const shardReports = plan.shards.map((s) => s.report);
  const processes = shardReports.reduce((sum, r) => sum + r.generator.processes, 0);
  const rssBytes = shardReports.reduce((sum, r) => sum + r.generator.rssBytes, 0);
  const stageTotals = addStages(shardReports);
  const held = mergedParticipants(plan.profile.chatStreams.participants, shardReports, plan.missing.length === 0);
  const participants = held.participants ?? plan.profile.chatStreams.participants;
  const view = (set: MetricSet) => metricView(set, { profile: plan.profile, participants, keepAlive: plan.keepAlive, processes, rssBytes });
  const stageResults = new Map(
    parseThresholds(plan.thresholds, 'thresholds')
      .filter((threshold) => threshold.stage !== null)
      .map((threshold) => [threshold.expression, judgeStage(threshold, stageTotals, view)] as const),
  );
  const startedAt = new Date(Math.min(...shardReports.map((r) => Date.parse(r.startedAt))));
  const endedAt = new Date(Math.max(...shardReports.map((r) => Date.parse(r.endedAt))));
  return buildReport(total, {
    ...held,
    runId: mergedRunId(plan.profile.name, startedAt),
    startedAt,
    endedAt,
    durationMs: Math.max(...shardReports.map((r) => r.durationMs)),
    interrupted: shardReports.some((r) => r.interrupted),
    target: plan.target,
    profile: plan.profile,
    keepAlive: plan.keepAlive,
    // Shard identity ends here: the merged report speaks for the whole run (or says what is missing).
    shard: null,
    processes,
    rssBytes,
    stageTotals,
    windowResults: stageResults,
    timeseries: alignTimeseries(shardReports.map((r) => r.timeseries)),
    warnings: shardWarnings(plan),
    thresholds: plan.thresholds,
    mergedFrom: plan.shards.map((s) => s.source),
    shardChecks: plan.shards.map((shard) => ({ label: shardLabel(shard), source: shard.source, checks: shard.report.checks })),
    shardSaturated: shardReports.some((r) => r.generator.saturated),
    // An interrupted shard stopped before its load was done: the run as planned did not happen.
    shardsFailed: plan.missing.length > 0 || shardReports.some((r) => r.interrupted || failedOutsideChecks(r)),
    // The shards of one run were started with the same labels and transport settings: the first
    // shard's speak for the run (the connections they opened add up in the total).
    labels: shardReports.find((r) => r.labels)?.labels,
    traceUrl: shardReports.find((r) => r.traceUrl !== undefined)?.traceUrl,
    transport: shardReports.find((r) => r.transport)?.transport,
    shardStarts: shardStarts(shardReports),
  });
}
