/**
 * What the two workload models (open: undici on a schedule; closed: autocannon connections)
 * share: a Workload builds request `seq` and judges its answer; `recordResponse` and
 * `recordFailure` turn one exchange into counters, histograms and check evidence.
 */
import type { FailureCode } from '../../contract/failure-codes.js';
import { recordMs } from '../../metrics/histogram.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import { type ThroughputKey, throughputNames } from '../../metrics/names.js';
import type { HttpRequestSpec } from './http-exchange.js';
import { type Inspection, inspectResponse, type ResponseView, recordProblemEvidence } from './response-check.js';

/** One scenario's request source and judge; `M` is what a request remembers for its judge. */
export interface Workload<M> {
  readonly scenario: ThroughputKey;
  /** Which random stream a Poisson schedule of it draws from (arrival-pacer.ts); absent: the scenario's own. */
  readonly arrivalKey?: number;
  /** Builds request `seq` (0, 1, 2, ... in the order they are sent). */
  next(seq: number): { spec: HttpRequestSpec; memo: M };
  /** Scenario-specific judgement of a response: records check evidence, returns extra failure codes (read-only: may be shared). */
  judge(metrics: MetricSet, memo: M, inspection: Inspection): readonly FailureCode[];
  /** Counts what a sent request cost, answered or not (bytes, override share). */
  account?(metrics: MetricSet, memo: M): void;
  /**
   * The generic verdict on an answer; absent: inspectResponse (200, the five headers, JSON).
   * A request kind judges by its own expectations instead.
   */
  inspect?(view: ResponseView): Inspection;
  /** Short label for failure samples, e.g. "PATCH profile_photo (filename part)". */
  label(memo: M): string;
}

/** The two durations recorded for one answered request, ms. */
export interface SampleTiming {
  /** Open model: from the intended start (coordinated-omission corrected). Closed model: from the actual start. */
  latencyMs: number;
  /** From the actual start. */
  serviceMs: number;
}

/** Records one answered request. A non-200, a missing header or a bad body is an error under its failure code. */
export function recordResponse<M>(
  metrics: MetricSet,
  workload: Workload<M>,
  memo: M,
  view: ResponseView,
  timing: SampleTiming,
  /** The traceparent's trace id the request carried, kept if it is among the slowest; null when none. */
  traceId: string | null = null,
  /** The traceparent's parent id, kept beside the trace id. */
  spanId: string | null = null,
): void {
  const names = throughputNames(workload.scenario);
  const inspection = workload.inspect ? workload.inspect(view) : inspectResponse(view);
  const extra = workload.judge(metrics, memo, inspection);
  const failures = extra.length === 0 ? inspection.failures : [...inspection.failures, ...extra];
  // Labels are put into words only where one is used: this runs on every answer.
  if (inspection.problemFailure !== undefined) recordProblemEvidence(metrics, inspection, workload.label(memo));
  metrics.inc(names.requests);
  metrics.inc(names.status(view.status));
  if (failures.length > 0) {
    metrics.inc(names.errors);
    // A request counts once in `errors` and once under each distinct code it showed.
    for (const failure of new Set(failures)) metrics.inc(names.errorKind(failure));
    // MetricSet.sample masks what it keeps (and only what it keeps): not masked here a second time.
    metrics.sample(workload.scenario, `${workload.label(memo)}: ${view.status} ${failures.join(', ')}`);
  }
  recordMs(metrics.histogram(names.latencyUs), timing.latencyMs);
  recordMs(metrics.histogram(names.serviceTimeUs), timing.serviceMs);
  if (traceId !== null) metrics.slow(workload.scenario, traceId, timing.latencyMs, spanId ?? undefined);
  workload.account?.(metrics, memo);
}

/**
 * Records a request that got no complete answer (timeout, reset, refused, a body past its
 * bound). It counts as a request and an error, but is not check evidence: conformance is
 * judged on answers, availability by the error rate. No latency is recorded (there is none
 * to record, and a timeout value would describe the client's bound, not the target).
 */
export function recordFailure<M>(metrics: MetricSet, workload: Workload<M>, memo: M | undefined, failure: FailureCode, detail: string): void {
  const names = throughputNames(workload.scenario);
  metrics.inc(names.requests);
  metrics.inc(names.errors);
  metrics.inc(names.errorKind(failure));
  const where = memo === undefined ? workload.scenario : workload.label(memo);
  metrics.sample(workload.scenario, `${where}: ${detail}`);
  if (memo !== undefined) workload.account?.(metrics, memo);
}

/** Spreads requests over participants and keeps a fixed-share pattern without randomness. */
export function shareHit(seq: number, share: number): boolean {
  // Error diffusion: exactly floor(n·share) hits among the first n requests, evenly spaced.
  return Math.floor((seq + 1) * share) > Math.floor(seq * share);
}

/**
 * A well-mixed index in [0, n) for request `seq`, uncorrelated with shareHit. A bare
 * multiplicative hash is not enough: its low bits follow seq's parity, which is exactly
 * shareHit's pattern at share 0.5 with an even n; the murmur3 finaliser mixes high bits down.
 */
export function mixedIndex(seq: number, n: number): number {
  let h = Math.imul(seq + 1, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % n;
}
