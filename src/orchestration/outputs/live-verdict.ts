/**
 * The verdict of a run so far: the report builder run on the running total, so live checks
 * and thresholds are judged exactly as report.json will judge them at the end.
 */
import type { Report, TimeseriesPoint } from '../../contract/report.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import { buildReport } from '../../report/build-report.js';
import type { RunConfig } from '../run-config.js';
import type { ResolvedTarget } from '../run-target.js';
import type { LiveVerdict } from './live-output.js';

export interface LiveJudgeContext {
  config: RunConfig;
  target: ResolvedTarget;
  processes: number;
  startedAt: Date;
  /** The time series so far (load.achieved judges the streams held on it); absent: none. */
  timeseries?: () => TimeseriesPoint[];
  /** As in ReportContext: the participants held, and the cap the fixtures put on the plan. */
  participants?: number;
  participantsCap?: number;
}

/** Judges `total` as the report would if the run ended now (no warnings). */
export function judgeLive(
  total: MetricSet,
  { config, target, processes, startedAt, timeseries, participants, participantsCap }: LiveJudgeContext,
): LiveVerdict {
  const now = new Date();
  const report: Report = buildReport(total, {
    runId: 'live',
    startedAt,
    endedAt: now,
    durationMs: now.getTime() - startedAt.getTime(),
    interrupted: false,
    target: { url: target.url, embedded: target.embedded !== null },
    profile: config.profile,
    keepAlive: target.keepAlive,
    shard: config.shard,
    processes,
    rssBytes: 0,
    timeseries: timeseries?.() ?? [],
    warnings: [],
    thresholds: config.thresholds,
    ...(participants !== undefined ? { participants } : {}),
    ...(participantsCap !== undefined ? { participantsCap } : {}),
  });
  return { verdict: report.verdict, checks: report.checks, thresholds: report.thresholds };
}
