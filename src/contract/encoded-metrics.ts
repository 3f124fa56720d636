/**
 * One interval's (or a whole run's) metrics as plain JSON: what workers send their parent,
 * what shards carry in report.json, and what merges add up exactly.
 */
/** The plain-JSON form of a MetricSet. */
export interface EncodedMetrics {
  counters: Record<string, number>;
  /** Highest value seen of a gauge (e.g. concurrent streams). */
  peaks: Record<string, number>;
  /** HDR compressed base64 histograms of integer microseconds. */
  histograms: Record<string, string>;
  /**
   * The exact largest value (µs) of each histogram. The HDR encoding keeps bucket counts only,
   * so a decoded histogram's max is its top bucket's upper edge; carried beside it, a merge's
   * max is the largest max of its parts, never above all of them (report.json 1.6.0).
   */
  maxima?: Record<string, number>;
  /** A few human-readable failure samples per key (bounded, redacted by the writer). */
  samples: Record<string, string[]>;
  /**
   * Since 1.6.0 (absent when no request carried a traceparent): per scenario (`photoUpload`,
   * `tagLink`, `chatStreams.delivery`), the slowest requests with the trace id each carried,
   * slowest first, at most SLOWEST_PER_KEY; a merge keeps the slowest of its parts.
   */
  slowest?: Record<string, SlowRequest[]>;
}

/** How many slowest requests a set keeps per key. */
export const SLOWEST_PER_KEY = 5;

/** One slow request (or, for `chatStreams.delivery`, the injected message behind a slow delivery). */
export interface SlowRequest {
  /** The W3C trace id of its traceparent, 32 hex digits. */
  traceId: string;
  /**
   * The parent id of its traceparent, 16 hex digits: the span the target's span is a child
   * of. Since 1.7.0; absent in older reports.
   */
  spanId?: string;
  latencyMs: number;
  /**
   * When it completed (a request's answer, or for a delivery the event's arrival), Unix
   * epoch ms: an OTLP exemplar's time. Since 1.7.0; absent in older reports.
   */
  atMs?: number;
}
