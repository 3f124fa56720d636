/**
 * A history of reports → the Trend: which runs belong to it (one profile, whole runs,
 * merged shards), in start order, each followed metric's series with its change points,
 * and the regressions the newest run begins or continues in metrics that have a threshold.
 */
import type { Report } from '../../contract/report.js';
import { readMetric } from '../../metrics/metric-catalog.js';
import { parseThreshold } from '../../metrics/thresholds.js';
import { ConfigError } from '../../util/errors.js';
import { VERSION } from '../../util/version.js';
import { analyseSeries, type Observation } from './analyse-series.js';
import type { HistoryEntry, SkippedFile } from './read-history.js';
import { groupsDiffer, HEADLINE_METRICS, requestKindMetrics, runNoise, schedulingDelay, type TrackedMetric } from './trend-metrics.js';
import { type ChangePoint, TREND_SCHEMA_VERSION, type Trend, type TrendRun, type TrendSeries, type TrendSettings } from './trend-model.js';

export interface BuildTrendOptions {
  /** The profile whose runs make the history; default: the newest report's. */
  profile?: string;
  settings: TrendSettings;
  generatedAt: Date;
  /** Overrides MAX_TREND_RUNS (tests). */
  maxRuns?: number;
}

/**
 * The most runs a trend follows, the newest (docs/reports.md, "What is in the history"):
 * the change-point search and the drift statistics cost the square of the runs in time and
 * memory, so an unbounded history would make `trend` run for hours.
 */
export const MAX_TREND_RUNS = 500;

/** Why a readable report is left out of the history, or null when it belongs. */
function exclusion(report: Report, profile: string): string | null {
  if (report.profile.name !== profile) return `profile "${report.profile.name}", not "${profile}"`;
  if (report.shard !== null && !report.mergedFrom) {
    return `a shard report (shard ${report.shard.index}/${report.shard.count}): merge the shards of its run first (coachbench merge)`;
  }
  if (report.interrupted) return 'the run was interrupted: its figures cover only part of it';
  // A lighter load than planned moves every figure: in a series it reads as an improvement, or hides a regression.
  const load = report.checks.find((check) => check.id === 'load.achieved');
  if (load?.status === 'fail') return `the run did not drive its planned load (load.achieved: ${load.detail}): its figures describe a lighter one`;
  return null;
}

function startOrder(a: HistoryEntry, b: HistoryEntry): number {
  return Date.parse(a.report.startedAt) - Date.parse(b.report.startedAt) || a.report.runId.localeCompare(b.report.runId);
}

/** The newest run's thresholds, parsed; the ones this version cannot read become notes. */
function newestThresholds(newest: HistoryEntry, notes: string[]): Map<string, { tracked: TrackedMetric; expression: string; limit: number }> {
  const byMetric = new Map<string, { tracked: TrackedMetric; expression: string; limit: number }>();
  for (const { expression } of newest.report.thresholds) {
    try {
      const parsed = parseThreshold(expression, 'threshold');
      byMetric.set(parsed.metric.path, { tracked: { ref: parsed.metric, title: parsed.metric.path }, expression: parsed.expression, limit: parsed.limit });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      notes.push(`the newest run's threshold "${expression}" cannot be read by this coachbench (${error.message}); it is not followed`);
    }
  }
  return byMetric;
}

function missingNote(tracked: TrackedMetric, missing: readonly { run: TrendRun; report: Report }[]): string {
  const root = tracked.ref.root;
  const why = (report: Report): string => (root !== 'generator' && root !== 'auth' && report.scenarios[root] === null ? `${root} did not run` : 'no value');
  const shown = missing.slice(0, 3).map(({ run, report }) => `run ${run.index} ${run.report} (${why(report)})`);
  const more = missing.length > shown.length ? ` and ${missing.length - shown.length} more` : '';
  return `${tracked.ref.path}: missing from ${missing.length} run${missing.length === 1 ? '' : 's'}: ${shown.join('; ')}${more}; its series skips them`;
}

function seriesOf(
  tracked: TrackedMetric,
  threshold: TrendSeries['threshold'],
  runs: readonly TrendRun[],
  reports: readonly Report[],
  settings: TrendSettings,
  notes: string[],
): TrendSeries | null {
  const observations: Observation[] = [];
  const observedReports: Report[] = [];
  const missing: { run: TrendRun; report: Report }[] = [];
  runs.forEach((run, i) => {
    const report = reports[i] as Report;
    const value = readMetric(report, tracked.ref);
    if (value === null) {
      missing.push({ run, report });
      return;
    }
    observations.push({ run, value, noise: runNoise(report, tracked.ref, value), schedulingDelay: schedulingDelay(report, tracked.ref) });
    observedReports.push(report);
  });
  if (observations.length === 0) {
    if (threshold !== null) notes.push(`${tracked.ref.path} (thresholded) is in none of the runs; it is not followed`);
    return null;
  }
  if (missing.length > 0) notes.push(missingNote(tracked, missing));
  const pick = (group: readonly number[]): Report[] => group.map((i) => observedReports[i] as Report);
  return analyseSeries(
    {
      metric: tracked.ref.path,
      title: tracked.title,
      unit: tracked.ref.unit,
      direction: tracked.ref.direction,
      threshold,
      observations,
      missing: missing.map(({ run }) => run.index),
      groupsDiffer: (before, after) => groupsDiffer(pick(before), pick(after), tracked.ref),
    },
    settings,
  );
}

/** The regression the newest run is in, if the metric's latest change is one. */
function currentRegression(series: TrendSeries): ChangePoint | null {
  const latest = series.changePoints.at(-1);
  return latest !== undefined && latest.kind === 'regression' ? latest : null;
}

/**
 * Builds the trend of `entries` (already read and slimmed). `skipped` (unreadable files)
 * is carried into the result with the reports this function leaves out. Throws a
 * ConfigError (exit 2) when no report is left.
 */
export function buildTrend(entries: readonly HistoryEntry[], skipped: readonly SkippedFile[], options: BuildTrendOptions): Trend {
  const allSkipped = [...skipped];
  const sorted = [...entries].sort(startOrder);
  const profile = options.profile ?? sorted.at(-1)?.report.profile.name;
  const kept: HistoryEntry[] = [];
  const seen = new Map<string, string>();
  for (const entry of sorted) {
    const why = profile === undefined ? 'no profile' : exclusion(entry.report, profile);
    const twin = seen.get(entry.report.runId);
    if (why !== null) allSkipped.push({ file: entry.file, reason: why });
    else if (twin !== undefined) allSkipped.push({ file: entry.file, reason: `the same run (${entry.report.runId}) as ${twin}` });
    else {
      seen.set(entry.report.runId, entry.file);
      kept.push(entry);
    }
  }
  const newest = kept.at(-1);
  if (profile === undefined || newest === undefined) {
    const reasons = allSkipped.slice(0, 3).map((skip) => `${skip.file}: ${skip.reason}`);
    throw new ConfigError(`no usable report of profile ${profile ?? '(any)'} among the inputs${reasons.length ? ` (${reasons.join('; ')})` : ''}`);
  }
  const maxRuns = options.maxRuns ?? MAX_TREND_RUNS;
  const leftOut = Math.max(0, kept.length - maxRuns);
  const followed = kept.slice(leftOut);
  const runs: TrendRun[] = followed.map((entry, i) => ({
    index: i + 1,
    runId: entry.report.runId,
    startedAt: entry.report.startedAt,
    verdict: entry.report.verdict,
    labels: entry.report.labels ?? {},
    report: entry.file,
  }));
  const reports = followed.map((entry) => entry.report);
  const notes: string[] = [];
  if (leftOut > 0) {
    notes.push(
      `${leftOut} older run${leftOut === 1 ? '' : 's'} of ${profile} left out: a trend follows the newest ${maxRuns}, from ${followed[0]!.report.startedAt} on`,
    );
  }
  const thresholds = newestThresholds(newest, notes);
  const headline = [...HEADLINE_METRICS, ...requestKindMetrics(newest.report)];
  const tracked = [...headline, ...[...thresholds.values()].map((t) => t.tracked).filter((t) => !headline.some((h) => h.ref.path === t.ref.path))];
  const series = tracked.flatMap((metric) => {
    const threshold = thresholds.get(metric.ref.path);
    const one = seriesOf(metric, threshold ? { expression: threshold.expression, limit: threshold.limit } : null, runs, reports, options.settings, notes);
    return one === null ? [] : [one];
  });
  return {
    schemaVersion: TREND_SCHEMA_VERSION,
    tool: { name: 'coachbench', version: VERSION },
    generatedAt: options.generatedAt.toISOString(),
    profile,
    settings: options.settings,
    runs,
    series,
    regressions: series.flatMap((one) => (one.threshold === null ? [] : [currentRegression(one)].filter((c): c is ChangePoint => c !== null))),
    skipped: allSkipped,
    notes,
  };
}
