/**
 * The shape of one metric declaration in the registry (src/metrics/registry/): what the
 * drivers count it under, where report.json shows it, which way is better, where the live
 * outputs export it, and one line for the docs. Every table the suite used to keep by hand
 * (names, catalog, exports, compare and trend directions, doc tables) is derived from these.
 */
import type { CheckId } from '../../contract/check-ids.js';
import type { ExportedKey } from './exported-families.js';

/** `ratio` is a fraction (0.01 = 1 %); `percent` is already in percent (cpuPercent). */
export type MetricUnit = 'ms' | 'count' | 'ratio' | 'perSec' | 'percent' | 'bytes' | 'flag' | 'seconds';
/** Which way is worse: `info` metrics describe the load or the driver and never regress. */
export type MetricDirection = 'lower' | 'higher' | 'info';

/**
 * How a metric is measured:
 * - `counter`: a MetricSet counter (shards and workers sum it);
 * - `peak`: a MetricSet peak gauge (shards running side by side take the max);
 * - `histogram`: a MetricSet HDR histogram of integer µs, shown in ms in the report;
 * - `family`: counters under one prefix (`chat.events.<type>`), shown as a record keyed by the rest;
 * - `figure`: no MetricSet name of its own: computed from others or taken from the settings.
 */
export type MeasureKind = 'counter' | 'peak' | 'histogram' | 'family' | 'figure';

/** Where the live outputs (Prometheus, OTLP) export a counter, a family or a histogram. */
export interface ExportRoute {
  /** The exported metric (exported-families.ts). */
  family: ExportedKey;
  /** Fixed labels of this metric's series. */
  labels: Readonly<Record<string, string>>;
  /** For a `family`: the label that takes the counter's key (`type`, `code`). */
  keyLabel?: string;
  /** For a `family`: export only keys that are failure codes (docs/failure-codes.md). */
  failureCodesOnly?: boolean;
  /** For a `counter` kept in µs: the factor to the exported base unit (1e-6 to seconds). */
  scale?: number;
}

export interface MetricDecl {
  /**
   * The MetricSet name inside its group, without the group's prefix (`opened` in group `chat.`
   * is `chat.opened`); for a `family`, the prefix of its counters, ending in a dot. Absent for a `figure`.
   */
  name?: string;
  measure: MeasureKind;
  /** Path inside the report root (`resume.reconnects`); absent for a metric report.json does not show. */
  report?: string;
  unit: MetricUnit;
  direction: MetricDirection;
  /** Since which report schema version the field exists (it is optional in report.json). */
  since?: string;
  export?: ExportRoute;
  /** The counter is failed observations of this check: coachbench_check_failures_total{check}. */
  failsCheck?: CheckId;
  /**
   * A ratio of two counts of the same root (`errors` of `requests`): compare and trend judge
   * it beyond sampling noise with a two-proportion test on those counts.
   */
  proportionOf?: { events: string; trials: string };
  /** One line for docs/reports.md (and for the reader of this table). */
  doc: string;
}

type Options = Partial<Pick<MetricDecl, 'since' | 'export' | 'failsCheck' | 'proportionOf'>> & { report?: string; doc: string };

/** A counter; `direction` says whether more of it is worse (`lower` is better) or just load (`info`). */
export const counter = <const N extends string, const O extends Options>(name: N, direction: MetricDirection, options: O, unit: MetricUnit = 'count') =>
  ({ name, measure: 'counter', unit, direction, ...options }) as const satisfies MetricDecl;

/** A peak gauge (the largest value any interval or shard saw). */
export const peak = <const N extends string, const O extends Options>(name: N, unit: MetricUnit, options: O) =>
  ({ name, measure: 'peak', unit, direction: 'info', ...options }) as const satisfies MetricDecl;

/** An HDR histogram of µs; report.json shows it in ms with count, min, mean, p50 … max and the HDR data. */
export const histogram = <const N extends string, const O extends Options>(name: N, direction: MetricDirection, options: O) =>
  ({ name, measure: 'histogram', unit: 'ms', direction, ...options }) as const satisfies MetricDecl;

/** Counters under `prefix` (ending in a dot), shown as a record of counts keyed by the rest of their name. */
export const family = <const N extends `${string}.`, const O extends Options>(prefix: N, direction: MetricDirection, options: O) =>
  ({ name: prefix, measure: 'family', unit: 'count', direction, ...options }) as const satisfies MetricDecl;

/** A report figure with no MetricSet name of its own (a rate, a ratio, a setting). */
export const figure = <const R extends string>(report: R, unit: MetricUnit, direction: MetricDirection, options: Omit<Options, 'report'>) =>
  ({ measure: 'figure', unit, direction, report, ...options }) as const satisfies MetricDecl;

/** Metrics counted under one MetricSet prefix (`chat.`, `photoUpload.`). */
export interface MetricGroup<M extends readonly MetricDecl[] = readonly MetricDecl[]> {
  prefix: string;
  metrics: M;
}

export const group = <const M extends readonly MetricDecl[]>(prefix: string, metrics: M): MetricGroup<M> => ({ prefix, metrics });

/** Plain (non-family) names of a group's metrics, by their short name: `CHAT.opened === 'chat.opened'`. */
export type NamesOf<M extends readonly MetricDecl[]> = {
  readonly [D in M[number] as D extends { name: infer K extends string } ? (K extends `${string}.` ? never : K) : never]: string;
};

export function namesOf<const G extends readonly MetricGroup[]>(...groups: G): NamesOf<G[number]['metrics']> {
  const out: Record<string, string> = {};
  for (const g of groups) {
    for (const decl of g.metrics) {
      if (decl.name !== undefined && decl.measure !== 'family') out[decl.name] = `${g.prefix}${decl.name}`;
    }
  }
  return out as NamesOf<G[number]['metrics']>;
}

/** The MetricSet name of one counter of a family: `under(group, 'events.')('KEEP_ALIVE')`. */
export function under(g: MetricGroup, prefix: string): (key: number | string) => string {
  if (!g.metrics.some((decl) => decl.measure === 'family' && decl.name === prefix)) throw new Error(`no family ${g.prefix}${prefix} in the registry`);
  return (key) => `${g.prefix}${prefix}${key}`;
}

/** The report paths a list of declarations shows (a type: the registry test holds it to the TypeScript contract). */
export type ReportPathsOf<M extends readonly MetricDecl[]> = M[number] extends infer D ? (D extends { report: infer R extends string } ? R : never) : never;
