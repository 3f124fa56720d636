/**
 * The addressable metrics of a Report: one table that thresholds parse against (so a
 * typo fails at config time, exit 2, not after an hour of soak) and that compare and trend
 * walk (so every metric has a unit and a better/worse direction in exactly one place, the
 * registry).
 */
import type { HistogramSummary, Report } from '../contract/report.js';
import { closestName } from './closest-name.js';
import { percentileMs } from './histogram.js';
import type { MetricDecl, MetricDirection, MetricUnit } from './registry/metric-decl.js';
import { type FieldKind, fieldKind, type MetricRoot, REGISTRY, REPORT_METRICS } from './registry/metric-registry.js';
import { throughputShared } from './registry/throughput-metrics.js';

export type { MetricDirection, MetricUnit } from './registry/metric-decl.js';
export type { FieldKind, MetricRoot } from './registry/metric-registry.js';

export interface FieldDef {
  kind: FieldKind;
  /** Unit of the value (of each entry, for a record; of each statistic, for a histogram). */
  unit: MetricUnit;
  direction: MetricDirection;
}

function catalogOf(): Record<MetricRoot, Record<string, FieldDef>> {
  const catalog = Object.fromEntries(REGISTRY.map(({ root }) => [root, {}])) as Record<MetricRoot, Record<string, FieldDef>>;
  for (const { root, field, decl } of REPORT_METRICS) catalog[root][field] = { kind: fieldKind(decl), unit: decl.unit, direction: decl.direction };
  return catalog;
}

/**
 * Every report metric by root, derived from the registry (src/metrics/registry/). Keys may
 * hold dots (`mainStreams.opened`): they are paths inside the scenario object.
 */
export const METRIC_CATALOG: Readonly<Record<MetricRoot, Readonly<Record<string, FieldDef>>>> = catalogOf();

export const METRIC_ROOTS = Object.keys(METRIC_CATALOG) as MetricRoot[];

/**
 * The root of the request kinds' metrics (docs/design.md §2.15): `requests.<kind>.<field>`,
 * where the fields are every throughput scenario's (`latencyMs`, `errorRate`, `errorsByKind`, …).
 * Kinds are the profile's, so the root is resolved here rather than declared in the registry.
 */
export const REQUESTS_ROOT = 'requests';
/** A registry root, or the request kinds' root. */
export type MetricRootName = MetricRoot | typeof REQUESTS_ROOT;

const KIND_FIELDS: Readonly<Record<string, FieldDef>> = Object.fromEntries(
  throughputShared('requests.kind').flatMap((decl) =>
    'report' in decl && decl.report !== undefined ? [[decl.report, { kind: fieldKind(decl), unit: decl.unit, direction: decl.direction }]] : [],
  ),
);
const KIND_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The statistics a summary carries; any other `pNN` is computed from the HDR data. */
export const SUMMARY_STATS = ['count', 'min', 'mean', 'p50', 'p90', 'p99', 'p999', 'max'] as const;

/** A resolved metric path: what to read and how to judge it. */
export interface MetricRef {
  /** Canonical dotted path, e.g. `chatStreams.eventLatencyMs.p99`. */
  path: string;
  root: MetricRootName;
  /** Catalog key inside the root, e.g. `eventLatencyMs` or `mainStreams.opened` (a request kind's: `<kind>.latencyMs`). */
  field: string;
  kind: FieldKind;
  /** Histogram statistic or record key; null for a scalar. */
  sub: string | null;
  unit: MetricUnit;
  direction: MetricDirection;
}

export type ResolveResult =
  | { ok: true; ref: MetricRef }
  /** `segment` is the index of the first offending path segment (segments.length = "missing one"). */
  | { ok: false; segment: number; message: string };

/**
 * Percentile of a statistic name, HdrHistogram style: the first two digits are the integer
 * part and any further digits are decimals, so `p50` → 50, `p999` → 99.9, `p9999` → 99.99,
 * `p995` → 99.5. Decimals ending in 0 are refused (`p100` would read as 10.0).
 */
export function statPercentile(stat: string): number | null {
  const match = /^p(\d{1,2})(\d*)$/.exec(stat);
  if (!match) return null;
  const decimals = match[2] ?? '';
  if (decimals.endsWith('0')) return null;
  const value = Number(decimals === '' ? match[1] : `${match[1]}.${decimals}`);
  return value > 0 && value < 100 ? value : null;
}

function isHistogramStat(stat: string): boolean {
  return (SUMMARY_STATS as readonly string[]).includes(stat) || statPercentile(stat) !== null;
}

/** Resolves path segments against the catalog, naming the first segment that does not fit. */
export function resolveMetricPath(segments: readonly string[]): ResolveResult {
  const root = segments[0] ?? '';
  if (root === REQUESTS_ROOT) {
    const kind = segments[1] ?? '';
    if (!KIND_NAME.test(kind))
      return { ok: false, segment: 1, message: `"requests" needs a request kind's name, then a metric (e.g. requests.getSession.latencyMs.p99)` };
    return resolveIn(REQUESTS_ROOT, KIND_FIELDS, segments, 2);
  }
  if (!(METRIC_ROOTS as string[]).includes(root)) {
    const roots = [...METRIC_ROOTS, REQUESTS_ROOT];
    const guess = closestName(root, roots);
    return { ok: false, segment: 0, message: `unknown metric root "${root}" (${guess ? `did you mean ${guess}? ` : ''}roots: ${roots.join(', ')})` };
  }
  return resolveIn(root as MetricRoot, METRIC_CATALOG[root as MetricRoot], segments, 1);
}

/** Resolves the segments from `first` on against `fields`; a request kind's field keeps its kind's name in front. */
function resolveIn(root: MetricRootName, fields: Readonly<Record<string, FieldDef>>, segments: readonly string[], first: number): ResolveResult {
  const prefix = segments
    .slice(1, first)
    .map((segment) => `${segment}.`)
    .join('');
  // Longest field first so `mainStreams.opened` wins over a hypothetical `mainStreams`.
  for (let take = Math.min(segments.length - first, 2); take >= 1; take -= 1) {
    const field = segments.slice(first, first + take).join('.');
    const def = fields[field];
    if (!def) continue;
    const rest = segments.slice(first + take);
    const at = first + take;
    const ref = (sub: string | null, unit: MetricUnit, direction: MetricDirection): ResolveResult => ({
      ok: true,
      ref: { path: segments.join('.'), root, field: `${prefix}${field}`, kind: def.kind, sub, unit, direction },
    });
    if (def.kind === 'scalar') {
      return rest.length === 0
        ? ref(null, def.unit, def.direction)
        : { ok: false, segment: at, message: `"${field}" is a number and has no "${rest.join('.')}"` };
    }
    if (rest.length === 0) {
      const what =
        def.kind === 'histogram' ? 'a statistic (count, min, mean, p50, p90, p99, p999, max or any pNN)' : 'one key (e.g. an event type or status code)';
      return { ok: false, segment: at, message: `"${field}" needs ${what}` };
    }
    if (rest.length > 1) {
      const hint = def.kind === 'histogram' ? ' (write 99.9 % as p999, 99.99 % as p9999)' : '';
      return { ok: false, segment: at, message: `"${field}" takes one ${def.kind === 'histogram' ? 'statistic' : 'key'}, not "${rest.join('.')}"${hint}` };
    }
    const sub = rest[0] as string;
    if (def.kind === 'record') return ref(sub, def.unit, def.direction);
    if (!isHistogramStat(sub)) return { ok: false, segment: at, message: `unknown statistic "${sub}" (use count, min, mean, max, p50, p90, p99, p999 or pNN)` };
    return sub === 'count' ? ref(sub, 'count', 'info') : ref(sub, 'ms', def.direction);
  }
  const name = segments[first] ?? '';
  const guess = closestName(name, Object.keys(fields)) ?? closestName(segments.slice(first, first + 2).join('.'), Object.keys(fields));
  const hint = guess ? `did you mean ${guess}?` : `known: ${Object.keys(fields).join(', ')}`;
  return { ok: false, segment: first, message: `unknown metric "${name}" in ${segments.slice(0, first).join('.')} (${hint})` };
}

function walk(value: unknown, keys: readonly string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** What a metric is read from: a report, or the same summaries of a window while the run goes on. */
export type MetricSource = Pick<Report, 'scenarios' | 'generator' | 'auth'>;

const SECTIONS = new Map(REGISTRY.map((section) => [section.root, section]));

/**
 * The object a root names, where the registry says it sits in report.json: a scenario summary
 * (null when the scenario was off), the generator, or the renewal counts (null when the run
 * renewed nothing and the report left them out).
 */
export function metricRootObject(report: MetricSource, root: MetricRootName): object | null {
  const path = root === REQUESTS_ROOT ? 'scenarios.requests' : (SECTIONS.get(root)?.reportPath ?? root);
  const scope = walk(report, path.split('.'));
  return scope !== null && typeof scope === 'object' ? scope : null;
}

const PROPORTIONS = new Map<string, { events: string; trials: string }>(
  REPORT_METRICS.flatMap(({ root, field, decl }) => (decl.proportionOf ? [[`${root}.${field}`, decl.proportionOf] as const] : [])),
);
const KIND_PROPORTIONS = new Map<string, { events: string; trials: string }>(
  throughputShared('requests.kind').flatMap((decl: MetricDecl) =>
    decl.proportionOf && decl.report !== undefined ? [[decl.report, decl.proportionOf] as const] : [],
  ),
);

/** The counts a ratio is made of, and the path of the object holding them below the root (a kind's name for a request kind). */
function proportionOf(root: MetricRootName, field: string): { counts: { events: string; trials: string }; within: string[] } | null {
  if (root === REQUESTS_ROOT) {
    const [kind, ...rest] = field.split('.');
    const counts = KIND_PROPORTIONS.get(rest.join('.'));
    return counts && kind ? { counts, within: [kind] } : null;
  }
  const counts = PROPORTIONS.get(`${root}.${field}`);
  return counts ? { counts, within: [] } : null;
}

/** Whether a metric is a ratio of two counts of its root (registry `proportionOf`). */
export const isProportion = (root: MetricRootName, field: string): boolean => proportionOf(root, field) !== null;

/**
 * The two counts a ratio metric is made of in one report (the registry's `proportionOf`:
 * errors of requests for an error rate), or null when the metric is no such ratio or the
 * report lacks its root.
 */
export function proportionCounts(report: MetricSource, root: MetricRootName, field: string): { events: number; trials: number } | null {
  const proportion = proportionOf(root, field);
  const scope = proportion ? (walk(metricRootObject(report, root), proportion.within) as Record<string, unknown> | null | undefined) : null;
  if (!proportion || scope === null || scope === undefined || typeof scope !== 'object') return null;
  const events = scope[proportion.counts.events];
  const trials = scope[proportion.counts.trials];
  return typeof events === 'number' && typeof trials === 'number' ? { events, trials } : null;
}

/** The metric fields of one request kind, keyed `<kind>.<field>` as the catalog resolves them under `requests`. */
export function requestKindFields(kind: string): Record<string, FieldDef> {
  return Object.fromEntries(Object.entries(KIND_FIELDS).map(([field, def]) => [`${kind}.${field}`, def]));
}

/** The request kinds a report holds (`scenarios.requests`), by name. */
export const requestKindsOf = (report: MetricSource): string[] => Object.keys(report.scenarios.requests ?? {});

/**
 * Reads a resolved metric from a report. Null when the scenario is off, the field is absent,
 * or the statistic is of an empty histogram (no data must not pass `p99 < 250`); an `auth`
 * count of a run without renewals reads as 0.
 * Flags read as 1/0; a missing record key reads as 0 (no 500s recorded means zero 500s).
 */
export function readMetric(report: MetricSource, ref: MetricRef): number | null {
  const scope = metricRootObject(report, ref.root);
  // No auth section: nothing was renewed or refused, so every renewal count is zero.
  if (scope === null) return SECTIONS.get(ref.root as MetricRoot)?.absentMeansZero && ref.kind === 'scalar' ? 0 : null;
  const value = walk(scope, ref.field.split('.'));
  if (ref.kind === 'scalar') {
    if (typeof value === 'boolean') return value ? 1 : 0;
    return typeof value === 'number' && Number.isFinite(value) ? value : null;
  }
  if (value === null || typeof value !== 'object' || ref.sub === null) return null;
  if (ref.kind === 'record') {
    const entry = (value as Record<string, unknown>)[ref.sub];
    return typeof entry === 'number' ? entry : 0;
  }
  const summary = value as HistogramSummary;
  if (ref.sub === 'count') return summary.count;
  if (summary.count === 0) return null;
  const own = (summary as unknown as Record<string, unknown>)[ref.sub];
  if (typeof own === 'number') return own;
  const percentile = statPercentile(ref.sub);
  return percentile === null ? null : percentileMs(summary.hdr, percentile);
}
