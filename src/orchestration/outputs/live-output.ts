/**
 * Live outputs (Prometheus, OTLP, the dashboard) consume the interval stream the collector
 * already produces, as k6's outputs do: the parent hands each merged interval to every
 * output once a second, so no output ever sits in a driver's hot path, and `--workers`
 * runs still have one endpoint (the parent's).
 */
import type { RequestsSettings } from '../../contract/profile/profile.js';
import type { PlannedStage } from '../../contract/profile/stage-plan.js';
import type { CheckResult, Report, ThresholdResult, TimeseriesPoint } from '../../contract/report.js';
import type { MetricSet } from '../../metrics/metric-set.js';

/** The checks and thresholds as they stand on the run's total so far. */
export interface LiveVerdict {
  verdict: Report['verdict'];
  checks: CheckResult[];
  thresholds: ThresholdResult[];
}

/** What an output knows about the session that starts (a run is one; a capacity search has one per step). */
export interface SessionInfo {
  profileName: string;
  targetUrl: string;
  /** Streams the session aims to hold open. */
  participants: number;
  durationMs: number;
  thresholds: readonly string[];
  /** The planned chat population as driven (capped, a shard's share; empty without chat), and streams per participant. */
  plannedParticipants?: PlannedStage[];
  streamsPerParticipant?: number;
  /** The profile's request kinds (docs/design.md §2.15), for the dashboard's kinds section; never sent to a page as such. */
  requests?: RequestsSettings;
}

/**
 * One closed interval. `interval` and `total` are the collector's: read `interval` now and
 * never keep it. `total` changes only as the next interval closes, just before the next
 * onInterval (or never again, once the session ends): an output may hold it until then to read
 * what it stood at this interval, and must drop it at the next onInterval or beginSession.
 */
export interface IntervalSample {
  point: TimeseriesPoint;
  interval: MetricSet;
  total: MetricSet;
  /** The live verdict on `total`, computed on the first call and shared by every output. */
  verdict: () => LiveVerdict;
}

export interface LiveOutput {
  /** How the output is named in a warning. */
  readonly name: string;
  beginSession(info: SessionInfo): void;
  onInterval(sample: IntervalSample): void;
  /** Flushes what is pending and stops listening; never throws. */
  close(): Promise<void>;
}
