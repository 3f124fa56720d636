/**
 * The metrics coachbench exports while it runs (Prometheus `/metrics`, OTLP push), derived
 * from the registry: the exported table (registry/exported-families.ts), the MetricSet
 * histogram behind each exported histogram, and where each internal counter goes (the
 * metric's `export` and `failsCheck`). docs/metrics.md's table is generated from the same.
 */
import type { CheckId } from '../contract/check-ids.js';
import { isFailureCode } from '../contract/failure-codes.js';
import { evidenceFailures } from './checks/evidence.js';
import { EXPORTED, type ExportedKey, type ExportedMetric, KIND_LABEL } from './registry/exported-families.js';
import { REGISTERED } from './registry/metric-registry.js';

export {
  EXPORTED,
  type ExportedKey,
  type ExportedKind,
  type ExportedMetric,
  KEEPALIVE_BUCKETS_SEC,
  KIND_LABEL,
  LATENCY_BUCKETS_SEC,
} from './registry/exported-families.js';
export { THROUGHPUT_SCENARIOS as SCENARIOS } from './registry/throughput-metrics.js';

/** The series names an endpoint serves for `metric` (a histogram is three series). */
export function seriesNames(exported: ExportedMetric): string[] {
  return exported.kind === 'histogram' ? [`${exported.name}_bucket`, `${exported.name}_sum`, `${exported.name}_count`] : [exported.name];
}

const EXPORTED_ORDER = Object.keys(EXPORTED);

/** Histogram sources: the MetricSet histogram (integer µs) behind each exported histogram series, in table order. */
export const HISTOGRAM_SOURCES: readonly { key: ExportedKey; source: string; labels: Record<string, string>; buckets: readonly number[] }[] =
  REGISTERED.flatMap(({ decl, name }) =>
    decl.measure === 'histogram' && decl.export && name !== null
      ? [{ key: decl.export.family, source: name, labels: { ...decl.export.labels }, buckets: EXPORTED[decl.export.family].buckets ?? [] }]
      : [],
  ).sort((a, b) => EXPORTED_ORDER.indexOf(a.key) - EXPORTED_ORDER.indexOf(b.key));

export interface ExportedCount {
  key: ExportedKey;
  labels: Record<string, string>;
  /** The factor from the counter's unit to the exported one (µs to seconds); absent for a plain count. */
  scale?: number;
}

/** Routes of single counters: a failed observation of a check first, then the metric's own series. */
const COUNTER_ROUTES = new Map<string, ExportedCount[]>();
/** Routes of counter families, by prefix. */
const FAMILY_ROUTES: { prefix: string; keyLabel: string; failureCodesOnly: boolean; route: ExportedCount }[] = [];
for (const { decl, name } of REGISTERED) {
  if (name === null) continue;
  if (decl.measure === 'family') {
    if (decl.export) {
      const { family, labels, keyLabel, failureCodesOnly } = decl.export;
      FAMILY_ROUTES.push({
        prefix: name,
        keyLabel: keyLabel ?? 'key',
        failureCodesOnly: failureCodesOnly === true,
        route: { key: family, labels: { ...labels } },
      });
    }
    continue;
  }
  if (decl.measure !== 'counter') continue;
  const routes: ExportedCount[] = [];
  if (decl.failsCheck) routes.push({ key: 'checkFailures', labels: { check: decl.failsCheck } });
  if (decl.export) {
    const { family, labels, scale } = decl.export;
    routes.push({ key: family, labels: { ...labels }, ...(scale !== undefined ? { scale } : {}) });
  }
  if (routes.length > 0) COUNTER_ROUTES.set(name, routes);
}

const CHECK_FAILURES = /^check\.(.+)\.failures$/;
/** A request kind's counters: `requests.<kind>.requests` and `requests.<kind>.error.<code>` (docs/design.md §2.15). */
const KIND_COUNTER = /^requests\.([^.]+)\.(requests|error\.(.+))$/;
/** A request kind's latency histogram, exported as coachbench_request_duration_seconds{scenario="requests",kind}. */
export const KIND_LATENCY = /^requests\.([^.]+)\.latencyUs$/;

/** Where a request kind's counter is exported; null for a counter that is no kind's. */
function kindCountsOf(counter: string): ExportedCount[] | null {
  const match = KIND_COUNTER.exec(counter);
  if (match === null) return null;
  const kind = match[1] as string;
  const code = match[3];
  if (code === undefined) return [{ key: 'requests', labels: { scenario: 'requests', [KIND_LABEL]: kind } }];
  return isFailureCode(code) ? [{ key: 'requestFailures', labels: { scenario: 'requests', [KIND_LABEL]: kind, code } }] : [];
}

/**
 * Where an internal counter is exported, or an empty list for counters that are not (slots,
 * bytes, evidence runs ...). A counter can feed two series (a failed stream open is a stream
 * failure by code and a failed observation of stream.open). Request-level checks count
 * their own failures (`check.<id>.failures`).
 */
export function exportedCountsOf(counter: string): ExportedCount[] {
  const routes = COUNTER_ROUTES.get(counter);
  if (routes) return routes.map((route) => ({ ...route, labels: { ...route.labels } }));
  for (const { prefix, keyLabel, failureCodesOnly, route } of FAMILY_ROUTES) {
    if (!counter.startsWith(prefix)) continue;
    const key = counter.slice(prefix.length);
    if (failureCodesOnly && !isFailureCode(key)) return [];
    return [{ key: route.key, labels: { ...route.labels, [keyLabel]: key } }];
  }
  const kind = kindCountsOf(counter);
  if (kind !== null) return kind;
  const check = CHECK_FAILURES.exec(counter)?.[1];
  if (check !== undefined && counter === evidenceFailures(check as CheckId)) return [{ key: 'checkFailures', labels: { check } }];
  return [];
}
