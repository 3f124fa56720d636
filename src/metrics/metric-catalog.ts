/**
 * The addressable metrics of a Report: one table that thresholds parse against (so a
 * typo fails at config time, exit 2, not after an hour of soak) and that compare walks
 * (so every metric has a unit and a better/worse direction in exactly one place).
 */
import type { HistogramSummary, Report } from '../contract/report.js';
import { closestName } from './closest-name.js';
import { percentileMs } from './histogram.js';

/** `ratio` is a fraction (0.01 = 1 %); `percent` is already in percent (cpuPercent). */
export type MetricUnit = 'ms' | 'count' | 'ratio' | 'perSec' | 'percent' | 'bytes' | 'flag' | 'seconds';
/** Which way is worse: `info` metrics describe the load or the driver and never regress. */
export type MetricDirection = 'lower' | 'higher' | 'info';
export type MetricRoot = 'chatStreams' | 'photoUpload' | 'tagLink' | 'generator' | 'auth';
export type FieldKind = 'scalar' | 'histogram' | 'record';

export interface FieldDef {
  kind: FieldKind;
  /** Unit of the value (of each entry, for a record; of each statistic, for a histogram). */
  unit: MetricUnit;
  direction: MetricDirection;
}

const scalar = (unit: MetricUnit, direction: MetricDirection): FieldDef => ({ kind: 'scalar', unit, direction });
const histogram = (direction: MetricDirection = 'lower'): FieldDef => ({ kind: 'histogram', unit: 'ms', direction });
const record = (direction: MetricDirection): FieldDef => ({ kind: 'record', unit: 'count', direction });
const info = scalar('count', 'info');
const bad = scalar('count', 'lower');

const THROUGHPUT_FIELDS: Record<string, FieldDef> = {
  requests: info,
  errors: bad,
  errorRate: scalar('ratio', 'lower'),
  errorsByKind: record('lower'),
  statusCodes: record('info'),
  throughputPerSec: scalar('perSec', 'higher'),
  requestedRatePerSec: scalar('perSec', 'info'),
  // Late starts are the driver's scheduler falling behind (generator health), not the target.
  lateSlots: info,
  droppedSlots: bad,
  latencyMs: histogram(),
  serviceTimeMs: histogram(),
  activeSeconds: scalar('seconds', 'info'),
};

/** Keys may hold dots (`mainStreams.opened`): they are paths inside the scenario object. */
export const METRIC_CATALOG: Readonly<Record<MetricRoot, Readonly<Record<string, FieldDef>>>> = {
  chatStreams: {
    participants: info,
    opened: info,
    openFailed: bad,
    openFailures: record('lower'),
    dropped: bad,
    drops: record('lower'),
    reopened: info,
    switches: info,
    leftByPlan: info,
    'resume.reconnects': info,
    'resume.reconnectDelayMs': histogram('info'),
    'resume.resumed': info,
    'resume.eventsRecovered': info,
    'resume.lost': bad,
    'resume.duplicated': bad,
    'resume.notResumable': info,
    stalled: bad,
    peakConcurrent: info,
    'mainStreams.opened': info,
    'mainStreams.openFailed': bad,
    'mainStreams.dropped': bad,
    'mainStreams.peakConcurrent': info,
    'mainStreams.events': record('info'),
    events: record('info'),
    keepAliveGapMs: histogram(),
    // Its spread follows the target's timer phase at open, not its speed; stream.keepalive.cadence judges it.
    firstKeepAliveMs: histogram('info'),
    firstKeepAliveFromRequestMs: histogram('info'),
    worstGapMs: histogram(),
    eventLatencyMs: histogram(),
    openLatencyMs: histogram(),
    expectedKeepAliveMs: scalar('ms', 'info'),
    keepAliveToleranceMs: scalar('ms', 'info'),
    keepAliveViolations: bad,
    firstKeepAliveLate: bad,
    firstKeepAliveEarly: bad,
    firstKeepAliveWithHeaders: bad,
    keepAliveBunched: bad,
    stalledSilentAfterHeaders: bad,
    streamsPastStallWindow: info,
    isolationViolations: bad,
    schemaViolations: bad,
    schemaViolationKinds: record('lower'),
    messagesSent: info,
    messagesFailed: bad,
    messagesLateSlots: info,
    messagesDroppedSlots: bad,
    deliveriesExpected: info,
    deliveriesReceived: info,
    deliveriesMissing: bad,
    duplicates: bad,
    membershipOps: info,
    membershipOpsFailed: bad,
  },
  photoUpload: { ...THROUGHPUT_FIELDS, overrideRequests: info, bytesSent: scalar('bytes', 'info') },
  tagLink: { ...THROUGHPUT_FIELDS, tagsCreated: info, existingReturned: bad },
  generator: {
    eventLoopDelayMs: histogram('info'),
    requestLoopDelayMs: histogram('info'),
    cpuPercent: scalar('percent', 'info'),
    rssBytes: scalar('bytes', 'info'),
    peakRssBytes: scalar('bytes', 'info'),
    saturated: scalar('flag', 'lower'),
    maxEventLoopDelayP99Ms: scalar('ms', 'info'),
    processes: info,
    'behind.intervals': bad,
    'behind.seconds': scalar('seconds', 'lower'),
    'behind.share': scalar('ratio', 'lower'),
  },
  // Bearer-token renewal (report.json `auth`, docs/design.md §2.13): a soak can hold its run to
  // `auth.refreshFailures == 0` or `auth.refreshMs.p99 < 2000`.
  auth: {
    refreshes: info,
    refreshMs: histogram(),
    refreshFailures: bad,
    waited: info,
    resent: info,
    staleAnswers: info,
    rejectedAfterRefresh: bad,
    fixturesReloads: info,
    fixturesReloadFailures: bad,
  },
};

export const METRIC_ROOTS = Object.keys(METRIC_CATALOG) as MetricRoot[];

/** The statistics a summary carries; any other `pNN` is computed from the HDR data. */
export const SUMMARY_STATS = ['count', 'min', 'mean', 'p50', 'p90', 'p99', 'p999', 'max'] as const;

/** A resolved metric path: what to read and how to judge it. */
export interface MetricRef {
  /** Canonical dotted path, e.g. `chatStreams.eventLatencyMs.p99`. */
  path: string;
  root: MetricRoot;
  /** Catalog key inside the root, e.g. `eventLatencyMs` or `mainStreams.opened`. */
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
  if (!(METRIC_ROOTS as string[]).includes(root)) {
    const guess = closestName(root, METRIC_ROOTS);
    return { ok: false, segment: 0, message: `unknown metric root "${root}" (${guess ? `did you mean ${guess}? ` : ''}roots: ${METRIC_ROOTS.join(', ')})` };
  }
  const fields = METRIC_CATALOG[root as MetricRoot];
  // Longest field first so `mainStreams.opened` wins over a hypothetical `mainStreams`.
  for (let take = Math.min(segments.length - 1, 2); take >= 1; take -= 1) {
    const field = segments.slice(1, 1 + take).join('.');
    const def = fields[field];
    if (!def) continue;
    const rest = segments.slice(1 + take);
    const at = 1 + take;
    const ref = (sub: string | null, unit: MetricUnit, direction: MetricDirection): ResolveResult => ({
      ok: true,
      ref: { path: segments.join('.'), root: root as MetricRoot, field, kind: def.kind, sub, unit, direction },
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
  const name = segments[1] ?? '';
  const guess = closestName(name, Object.keys(fields)) ?? closestName(segments.slice(1, 3).join('.'), Object.keys(fields));
  const hint = guess ? `did you mean ${guess}?` : `known: ${Object.keys(fields).join(', ')}`;
  return { ok: false, segment: 1, message: `unknown metric "${name}" in ${root} (${hint})` };
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

/**
 * The object a root names: a scenario summary (null when the scenario was off), the generator,
 * or the renewal counts (null when the run renewed nothing and the report left them out).
 */
export function metricRootObject(report: MetricSource, root: MetricRoot): object | null {
  if (root === 'generator') return report.generator;
  if (root === 'auth') return report.auth ?? null;
  return report.scenarios[root];
}

/**
 * Reads a resolved metric from a report. Null when the scenario is off, the field is absent,
 * or the statistic is of an empty histogram (no data must not pass `p99 < 250`); an `auth`
 * count of a run without renewals reads as 0.
 * Flags read as 1/0; a missing record key reads as 0 (no 500s recorded means zero 500s).
 */
export function readMetric(report: MetricSource, ref: MetricRef): number | null {
  const scope = metricRootObject(report, ref.root);
  // No auth section: nothing was renewed or refused, so every renewal count is zero.
  if (scope === null) return ref.root === 'auth' && ref.kind === 'scalar' ? 0 : null;
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
