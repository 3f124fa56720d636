/**
 * trend.json: the history of one profile's runs, each headline metric as a series with its
 * change points. Pinned by schemas/trend.schema.json; bump TREND_SCHEMA_VERSION (and the
 * schema) on any change, minor for added fields, major for removed or retyped ones.
 */
import type { Verdict } from '../../contract/report.js';
import type { MetricDirection, MetricUnit } from '../../metrics/metric-catalog.js';

export const TREND_SCHEMA_VERSION = '1.0.0';

/** One run of the history, in start order. */
export interface TrendRun {
  /** 1-based position in start order: "run 7" everywhere in the trend means this. */
  index: number;
  runId: string;
  startedAt: string;
  verdict: Verdict;
  /** The run's labels (`--label`, git sha from the CI environment); empty for older reports. */
  labels: Record<string, string>;
  /** The report.json it was read from, as an absolute path. */
  report: string;
}

/** One value of a series; `lo`/`hi` bound its sampling noise (~95 %) where a model exists. */
export interface TrendPoint {
  run: number;
  value: number;
  lo?: number;
  hi?: number;
}

/** Runs between two change points (1-based run indexes, inclusive). */
export interface TrendSegment {
  from: number;
  to: number;
  /** Mean of the segment's values. */
  mean: number;
  runs: number;
}

export type ShiftKind = 'regression' | 'improvement' | 'change';

/** A significant shift of one metric, starting at `run`. */
export interface ChangePoint {
  metric: string;
  unit: MetricUnit;
  /** `regression` or `improvement` by the metric's direction; `change` for info metrics. */
  kind: ShiftKind;
  /** The first run after the change (1-based index into `runs`). */
  run: number;
  runId: string;
  startedAt: string;
  labels: Record<string, string>;
  /** Mean of the segment before and after the change. */
  before: number;
  after: number;
  /** after − before, with its confidence interval at `confidence`. */
  shift: number;
  relative: number | null;
  interval: { lo: number; hi: number };
  confidence: number;
  /** E-divisive permutation p-value; null for a provisional change. */
  pValue: number | null;
  /**
   * True when only the newest run(s) are past the change, too few for the permutation test:
   * judged by the interval test alone, at 1 % or the stated level if stricter.
   */
  provisional: boolean;
  /** Runs before and after the change that the shift rests on. */
  runsBefore: number;
  runsAfter: number;
  /** Why it counts: the tests it passed, in words. */
  evidence: string[];
}

/** A monotone trend across the whole history (Theil–Sen slope, Mann–Kendall test). */
export interface TrendDrift {
  slopePerRun: number;
  /** Slope relative to the first value of the fitted line; null when that is 0. */
  relativePerRun: number | null;
  pValue: number;
  significant: boolean;
}

export interface TrendSeries {
  /** Metric path as thresholds write it: `chatStreams.eventLatencyMs.p99`. */
  metric: string;
  title: string;
  unit: MetricUnit;
  direction: MetricDirection;
  /** The newest run's threshold on this metric, if it has one: `--fail-on-regression` judges only these. */
  threshold: { expression: string; limit: number } | null;
  points: TrendPoint[];
  /** Runs in the history without this metric (scenario off, older report). */
  missing: number[];
  segments: TrendSegment[];
  changePoints: ChangePoint[];
  drift: TrendDrift | null;
}

export interface TrendSettings {
  significance: number;
  permutations: number;
  minSegment: number;
  /** Absolute floors by unit that a shift must reach (compare's floors, raised by `--floor`). */
  floors: Partial<Record<MetricUnit, number>>;
}

export interface Trend {
  schemaVersion: string;
  tool: { name: 'coachbench'; version: string };
  generatedAt: string;
  profile: string;
  settings: TrendSettings;
  runs: TrendRun[];
  series: TrendSeries[];
  /**
   * Regressions the newest run begins or continues, in metrics that have a threshold:
   * what `--fail-on-regression` fails on.
   */
  regressions: ChangePoint[];
  /** Files not used, and why. */
  skipped: Array<{ file: string; reason: string }>;
  /** Other things a reader should know (metrics missing from some runs, unreadable thresholds). */
  notes: string[];
}
