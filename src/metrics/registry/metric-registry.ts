/**
 * The metric registry: every metric coachbench measures or reports, declared once, by the
 * report.json root it appears under. Names (names.ts), the threshold and compare catalog
 * (metric-catalog.ts), the live exports (exported-metrics.ts) and the metric tables of
 * docs/metrics.md and docs/reports.md are derived from it; test/metrics/metric-registry.test.ts
 * holds the report schema and the TypeScript contract to it. CONTRIBUTING.md, "Adding a metric".
 */
import { CHAT_STREAMS_GROUPS } from './chat-metrics.js';
import { AUTH_METRICS, GENERATOR_METRICS } from './generator-metrics.js';
import type { MetricDecl, MetricGroup } from './metric-decl.js';
import { PHOTO_UPLOAD, PROBES, TAG_LINK, TRANSPORT } from './throughput-metrics.js';

export type MetricRoot = 'chatStreams' | 'photoUpload' | 'tagLink' | 'generator' | 'auth';
export type FieldKind = 'scalar' | 'histogram' | 'record';

/** The groups of one report root, in the order report.json, compare and the docs list them. */
export interface RegistrySection {
  root: MetricRoot;
  /** Where the root sits in report.json. */
  reportPath: string;
  /** The section is left out of a run that had nothing to count in it; its counts then read as 0. */
  absentMeansZero?: true;
  groups: readonly MetricGroup[];
}

export const REGISTRY: readonly RegistrySection[] = [
  { root: 'chatStreams', reportPath: 'scenarios.chatStreams', groups: CHAT_STREAMS_GROUPS },
  { root: 'photoUpload', reportPath: 'scenarios.photoUpload', groups: [PHOTO_UPLOAD] },
  { root: 'tagLink', reportPath: 'scenarios.tagLink', groups: [TAG_LINK] },
  { root: 'generator', reportPath: 'generator', groups: [GENERATOR_METRICS] },
  { root: 'auth', reportPath: 'auth', absentMeansZero: true, groups: [AUTH_METRICS] },
];

/** Groups with no report root: counted and read inside a run, never shown as metrics. */
export const INTERNAL_GROUPS: readonly MetricGroup[] = [PROBES, TRANSPORT];

/** One declared metric with where it was declared. */
export interface RegisteredMetric {
  decl: MetricDecl;
  group: MetricGroup;
  /** Null for an internal-only group. */
  root: MetricRoot | null;
  /** The full MetricSet name (a family's: its prefix); null for a figure. */
  name: string | null;
}

/** Every declared metric, report roots first, in registry order. */
export const REGISTERED: readonly RegisteredMetric[] = [
  ...REGISTRY.flatMap(({ root, groups }) => groups.map((group) => ({ root, group }))),
  ...INTERNAL_GROUPS.map((group) => ({ root: null, group })),
].flatMap(({ root, group }) => group.metrics.map((decl) => ({ decl, group, root, name: decl.name === undefined ? null : `${group.prefix}${decl.name}` })));

/** How report.json holds a metric of this kind. */
export function fieldKind(decl: MetricDecl): FieldKind {
  if (decl.measure === 'histogram') return 'histogram';
  if (decl.measure === 'family') return 'record';
  return 'scalar';
}

/** A metric report.json shows: its root, its path inside the root, and its declaration. */
export interface ReportMetric {
  root: MetricRoot;
  field: string;
  decl: MetricDecl;
  name: string | null;
}

export const REPORT_METRICS: readonly ReportMetric[] = REGISTERED.flatMap(({ root, decl, name }) =>
  root !== null && decl.report !== undefined ? [{ root, field: decl.report, decl, name }] : [],
);
