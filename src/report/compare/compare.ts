/**
 * Baseline vs candidate: every metric both reports carry, with its direction, relative
 * change and whether it regressed. Latency percentiles come from the HDR histograms.
 *
 * A change is a regression only when it is worse by more than the relative limit, by at
 * least the absolute floor of its unit (a p99 going 0.2 → 0.3 ms is +50 % of nothing; for
 * latencies also the generator's own event-loop delay at that percentile), and
 * beyond sampling noise (compare-noise.ts: percentiles, error rates and event counts). From a zero baseline the relative change is
 * undefined; floor and noise decide. A max is one sample, and a percentile with few samples
 * beyond it is hardly more: both are shown, not judged.
 */

import type { HistogramSummary, Report } from '../../contract/report.js';
import { decodeHistogram, type Histogram } from '../../metrics/histogram.js';
import {
  type FieldDef,
  isProportion,
  METRIC_CATALOG,
  METRIC_ROOTS,
  type MetricDirection,
  type MetricRoot,
  type MetricRootName,
  type MetricUnit,
  metricRootObject,
  proportionCounts,
  REQUESTS_ROOT,
  readMetric,
  requestKindFields,
  requestKindsOf,
  resolveMetricPath,
} from '../../metrics/metric-catalog.js';
import { ConfigError } from '../../util/errors.js';
import { countsDiffer, intervalsDiffer, percentileInterval, proportionsDiffer } from './compare-noise.js';
import { comparabilityWarnings } from './compare-warnings.js';

/** Smallest absolute change that can count, per unit (documented in docs/reports.md). */
export const ABSOLUTE_FLOORS: Readonly<Record<MetricUnit, number>> = {
  ms: 1,
  count: 1,
  ratio: 0.001,
  perSec: 1,
  percent: 1,
  bytes: 1_048_576,
  flag: 1,
  seconds: 1,
};

/** The histogram statistics compare shows, and the HDR percentile each one is. */
export const COMPARED_STATS: readonly (readonly [string, number])[] = [
  ['p50', 50],
  ['p90', 90],
  ['p99', 99],
  ['p999', 99.9],
  ['max', 100],
];

export interface CompareOptions {
  /** Default allowed worsening as a fraction (0.1 = 10 %). */
  maxRegression: number;
  /** Overrides by metric path or path prefix (`chatStreams.eventLatencyMs.p99`, `chatStreams.eventLatencyMs`, `tagLink`). */
  perMetric: Record<string, number>;
  /** Raised absolute floors by unit (a noisy CI runner: `{ ms: 5 }`); never below ABSOLUTE_FLOORS. */
  floors?: Partial<Record<MetricUnit, number>>;
}

/**
 * `noise`: beyond limit and floor, but not distinguishable from sampling noise.
 * `few-samples`: a percentile with fewer than MIN_TAIL_SAMPLES beyond it on either side.
 */
export type RowStatus = 'regression' | 'improvement' | 'unchanged' | 'noise' | 'few-samples' | 'info' | 'missing';

/**
 * A percentile is judged only when each run has at least this many samples beyond it
 * (p90 needs 100, p99 needs 1,000, p99.9 needs 10,000): below that its interval is not reliable.
 */
export const MIN_TAIL_SAMPLES = 10;

export interface ComparisonRow {
  metric: string;
  unit: MetricUnit;
  direction: MetricDirection;
  baseline: number | null;
  candidate: number | null;
  /** candidate − baseline; null when either side has no value. */
  delta: number | null;
  /** delta / |baseline|; null when the baseline is zero or either side is missing. */
  relative: number | null;
  /** The relative limit applied (null for info metrics). */
  limit: number | null;
  floor: number;
  status: RowStatus;
}

export interface RunIdentity {
  runId: string;
  profile: string;
  startedAt: string;
  durationMs: number;
  verdict: Report['verdict'];
}

export interface Comparison {
  baseline: RunIdentity;
  candidate: RunIdentity;
  maxRegression: number;
  rows: ComparisonRow[];
  regressions: ComparisonRow[];
  /** Reasons the two runs may not be comparable (different profile, saturated generator, ...). */
  warnings: string[];
}

/** Throws ConfigError unless `key` names a catalog metric, field, or root. */
export function assertMetricKey(key: string, where: string): void {
  const segments = key.split('.');
  const resolved = resolveMetricPath(segments);
  if (resolved.ok) return;
  const root = segments[0] as MetricRoot;
  // `requests` and `requests.<kind>` name every metric of the kinds, or of one kind.
  if (segments[0] === REQUESTS_ROOT && segments.length <= 2) return;
  if (METRIC_ROOTS.includes(root) && (segments.length === 1 || METRIC_CATALOG[root][segments.slice(1).join('.')])) return;
  throw new ConfigError(`${where}: unknown metric "${key}": ${resolved.message}`);
}

/** The limit for a metric: the longest matching per-metric prefix, else the default. */
function limitFor(metric: string, options: CompareOptions): number {
  let best: string | null = null;
  for (const key of Object.keys(options.perMetric)) {
    if ((metric === key || metric.startsWith(`${key}.`)) && (best === null || key.length > best.length)) best = key;
  }
  return best === null ? options.maxRegression : (options.perMetric[best] as number);
}

/** What compare knows about a metric beyond its two values. */
export interface Evidence {
  /** Whether the two values differ beyond sampling noise; undefined when there is no model for it. */
  differs?: boolean;
  /** A floor above the unit's (e.g. the generator's own event-loop delay for latencies). */
  floor?: number;
}

/** Judges one metric: regression, improvement, unchanged, info (never judged) or missing (one side has no value). */
export function judge(
  metric: string,
  unit: MetricUnit,
  direction: MetricDirection,
  baseline: number | null,
  candidate: number | null,
  options: CompareOptions,
  evidence: Evidence = {},
): ComparisonRow {
  const { differs } = evidence;
  const floor = Math.max(ABSOLUTE_FLOORS[unit], options.floors?.[unit] ?? 0, evidence.floor ?? 0);
  const limit = direction === 'info' ? null : limitFor(metric, options);
  const row = { metric, unit, direction, baseline, candidate, floor, limit };
  if (baseline === null || candidate === null) return { ...row, delta: null, relative: null, status: 'missing' };
  const delta = candidate - baseline;
  const relative = baseline !== 0 ? delta / Math.abs(baseline) : delta === 0 ? 0 : null;
  if (limit === null) return { ...row, delta, relative, status: 'info' };
  const significant = Math.abs(delta) >= floor && (relative === null || Math.abs(relative) > limit);
  const worse = direction === 'lower' ? delta > 0 : delta < 0;
  const status: RowStatus = !significant ? 'unchanged' : differs === false ? 'noise' : worse ? 'regression' : 'improvement';
  return { ...row, delta, relative, status };
}

function decoded(summary: HistogramSummary | undefined): Histogram | null {
  if (!summary || summary.count === 0) return null;
  const histogram = decodeHistogram(summary.hdr);
  return histogram.totalCount === 0 ? null : histogram;
}

const statValue = (histogram: Histogram | null, percentile: number): number | null =>
  histogram === null ? null : (percentile === 100 ? histogram.maxValue : histogram.getValueAtPercentile(percentile)) / 1_000;

/**
 * A latency change smaller than the event-loop delay of the process that measured it cannot
 * be told apart from the driver's own scheduling: per percentile, the larger of the two runs'
 * generator event-loop delay at that percentile joins the 1 ms floor.
 */
function schedulingFloor(baseline: Report, candidate: Report): (percentile: number) => number {
  const loops = [decoded(baseline.generator.eventLoopDelayMs), decoded(candidate.generator.eventLoopDelayMs)];
  return (percentile) => Math.max(0, ...loops.map((loop) => statValue(loop, percentile) ?? 0));
}

/** Rows for one histogram: HDR percentiles, judged only beyond noise; max shown as info. */
function histogramRows(
  path: string,
  direction: MetricDirection,
  base: Histogram | null,
  cand: Histogram | null,
  options: CompareOptions,
  floorAt: (percentile: number) => number,
): ComparisonRow[] {
  return COMPARED_STATS.map(([stat, percentile]) => {
    const b = statValue(base, percentile);
    const c = statValue(cand, percentile);
    if (percentile === 100 || direction === 'info') return judge(`${path}.${stat}`, 'ms', 'info', b, c, options);
    const tail = (histogram: Histogram | null): number => (histogram === null ? 0 : histogram.totalCount * (1 - percentile / 100));
    if (base !== null && cand !== null && Math.min(tail(base), tail(cand)) < MIN_TAIL_SAMPLES) {
      return { ...judge(`${path}.${stat}`, 'ms', direction, b, c, options), limit: null, status: 'few-samples' };
    }
    const differs = base !== null && cand !== null ? intervalsDiffer(percentileInterval(base, percentile), percentileInterval(cand, percentile)) : undefined;
    return judge(`${path}.${stat}`, 'ms', direction, b, c, options, { differs, floor: floorAt(percentile) });
  });
}

function fieldOf(scope: object | null, field: string): unknown {
  return field
    .split('.')
    .reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), scope);
}

/** A ratio of two counts (an error rate): a two-proportion test on the counts of each run. */
function proportionDiffers(root: MetricRootName, field: string, baseline: Report, candidate: Report): boolean | undefined {
  const b = proportionCounts(baseline, root, field);
  const c = proportionCounts(candidate, root, field);
  return b === null || c === null ? undefined : proportionsDiffer(b, c);
}

/** Whether a scalar or record metric moved beyond noise; undefined when no noise model applies. */
function noiseVerdict(
  field: string,
  unit: MetricUnit,
  root: MetricRootName,
  b: number | null,
  c: number | null,
  baseline: Report,
  candidate: Report,
): boolean | undefined {
  if (isProportion(root, field)) return proportionDiffers(root, field, baseline, candidate);
  if (unit === 'count' && b !== null && c !== null) return countsDiffer(b, c);
  return undefined;
}

function compareRoot(
  root: MetricRootName,
  baseline: Report,
  candidate: Report,
  options: CompareOptions,
  fields: Readonly<Record<string, FieldDef>> = METRIC_CATALOG[root as MetricRoot],
): ComparisonRow[] {
  const rows: ComparisonRow[] = [];
  const floorAt = root === 'generator' ? () => 0 : schedulingFloor(baseline, candidate);
  for (const [field, def] of Object.entries(fields)) {
    const base = fieldOf(metricRootObject(baseline, root), field);
    const cand = fieldOf(metricRootObject(candidate, root), field);
    if (def.kind === 'histogram') {
      const b = decoded(base as HistogramSummary | undefined);
      const c = decoded(cand as HistogramSummary | undefined);
      if (b !== null || c !== null) rows.push(...histogramRows(`${root}.${field}`, def.direction, b, c, options, floorAt));
      continue;
    }
    const subs = def.kind === 'record' ? [...new Set([...Object.keys(base ?? {}), ...Object.keys(cand ?? {})])].sort() : [null];
    for (const sub of subs) {
      const path = [root, ...field.split('.'), ...(sub === null ? [] : [sub])];
      const resolved = resolveMetricPath(path);
      if (!resolved.ok) continue; // a record key holding a dot cannot be addressed; it still shows in the report
      const b = readMetric(baseline, resolved.ref);
      const c = readMetric(candidate, resolved.ref);
      if (b === null && c === null) continue;
      rows.push(judge(resolved.ref.path, def.unit, def.direction, b, c, options, { differs: noiseVerdict(field, def.unit, root, b, c, baseline, candidate) }));
    }
  }
  return rows;
}

function identity(report: Report): RunIdentity {
  return { runId: report.runId, profile: report.profile.name, startedAt: report.startedAt, durationMs: report.durationMs, verdict: report.verdict };
}

/**
 * Compares two reports metric by metric. Throws ConfigError for a negative limit or a
 * per-metric key that names no metric (so a typo does not silently use the default).
 */
export function compareReports(baseline: Report, candidate: Report, options: CompareOptions): Comparison {
  for (const [key, limit] of Object.entries({ '--max-regression': options.maxRegression, ...options.perMetric })) {
    if (!(limit >= 0)) throw new ConfigError(`${key}: a regression limit must be a non-negative fraction, got ${limit}`);
  }
  for (const key of Object.keys(options.perMetric)) assertMetricKey(key, '--metric-regression');
  const rows: ComparisonRow[] = [];
  for (const root of METRIC_ROOTS) {
    if (metricRootObject(baseline, root) === null || metricRootObject(candidate, root) === null) continue;
    rows.push(...compareRoot(root, baseline, candidate, options));
  }
  // Request kinds (docs/design.md §2.15): a kind both runs had, field by field as a throughput scenario.
  const candidateKinds = new Set(requestKindsOf(candidate));
  for (const kind of requestKindsOf(baseline).filter((name) => candidateKinds.has(name))) {
    rows.push(...compareRoot(REQUESTS_ROOT, baseline, candidate, options, requestKindFields(kind)));
  }
  return {
    baseline: identity(baseline),
    candidate: identity(candidate),
    maxRegression: options.maxRegression,
    rows,
    regressions: rows.filter((row) => row.status === 'regression'),
    warnings: comparabilityWarnings(baseline, candidate),
  };
}
