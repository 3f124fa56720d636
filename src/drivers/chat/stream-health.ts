/**
 * What the driver's sweep judges on each stream (docs/design.md §6): a stream silent for
 * 2 × the KEEP_ALIVE interval is stalled, and an open waiting longer than the open timeout for
 * its response headers has failed. Each says what it found; the driver closes, reopens or
 * fails the stream.
 */
import { type SseStream, StreamState } from '../../engine/sse-reader.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import { CHAT } from '../../metrics/names.js';

/** True when an open stream got nothing for longer than `stallMs`; counts the stall and samples it. */
export function countStall(metrics: MetricSet, stream: SseStream, nowMs: number, stallMs: number): boolean {
  if (stream.state !== StreamState.Open || nowMs - stream.lastFrameAtMs <= stallMs) return false;
  metrics.inc(CHAT.stalled);
  // Headers and then nothing, on a connection still open: the signature of a buffering intermediary (docs/failure-codes.md).
  if (!stream.sawBody) metrics.inc(CHAT.stalledSilentAfterHeaders);
  metrics.sample(CHAT.samples, `${stream.role} stream ${stream.sessionId ?? ''} silent for ${(nowMs - stream.lastFrameAtMs).toFixed(0)} ms`);
  return true;
}

/**
 * The `timeout:headers` detail of an open that has waited longer than `timeoutMs` for its
 * response headers, whatever it waits on (a connection, a proxy's queue, the target); null
 * while it is within its time, or not opening.
 */
export function openTimeoutDetail(stream: SseStream, nowMs: number, timeoutMs: number): string | null {
  if (!stream.opening || nowMs - stream.requestAtMs <= timeoutMs) return null;
  return `timeout:headers: no response headers within ${timeoutMs} ms (waiting for a connection, a proxy or the target)`;
}

/** The `timeout:headers` detail of an open still waiting when the run ended: it failed to open in the time it had, never nothing. */
export function openCutAtEndDetail(stream: SseStream, nowMs: number): string {
  return `timeout:headers: still waiting for response headers when the run ended, after ${Math.round(nowMs - stream.requestAtMs)} ms`;
}
