/**
 * Exactly-once delivery accounting for injected messages (docs/design.md §6).
 * A message is expected on every chat stream that was open on its session when it was
 * posted and stayed open for the whole delivery window; each such stream must receive it
 * exactly once. Receipts are matched by the correlation token in the message text.
 */
import { type SseStream, StreamState } from '../../engine/sse-reader.js';

interface PendingMessage {
  sessionId: string;
  intendedMs: number;
  deadlineMs: number;
  /** Streams open on the session at post time; receipts[i] counts arrivals on expected[i]. */
  expected: SseStream[];
  receipts: number[];
  resolved: boolean;
  /** The trace id of the post's traceparent, null when it carried none. */
  traceId: string | null;
  /** Its parent id, null likewise. */
  spanId: string | null;
}

/** What one arrival of a message on a stream was: its first delivery there, a repeat, or not expected there. */
export type Receipt =
  | { outcome: 'first'; latencyMs: number; traceId: string | null; spanId: string | null }
  | { outcome: 'duplicate' }
  /** Not expected on this stream (opened after the post, or an unknown/foreign token). */
  | { outcome: 'unexpected' };

export interface Resolution {
  expected: number;
  received: number;
  missing: number;
}

export class DeliveryTracker {
  private readonly pending = new Map<number, PendingMessage>();
  private nextSeq = 1;

  constructor(
    /** How long after its intended send time a message may take to arrive. */
    private readonly windowMs: number,
  ) {}

  /** Registers a message before it is posted (deliveries can beat the POST's response). */
  register(sessionId: string, intendedMs: number, openStreams: readonly SseStream[], traceId: string | null = null, spanId: string | null = null): number {
    const seq = this.nextSeq++;
    const expected = openStreams.filter((s) => s.state === StreamState.Open);
    this.pending.set(seq, {
      sessionId,
      intendedMs,
      deadlineMs: intendedMs + this.windowMs,
      expected,
      receipts: expected.map(() => 0),
      resolved: false,
      traceId,
      spanId,
    });
    return seq;
  }

  /** The post is sent again from `startMs` (a renewed token): its delivery latency counts from there. */
  resend(seq: number, startMs: number): void {
    const message = this.pending.get(seq);
    if (!message) return;
    message.intendedMs = startMs;
    message.deadlineMs = startMs + this.windowMs;
  }

  /** The post failed: nothing is expected of this message. */
  cancel(seq: number): void {
    this.pending.delete(seq);
  }

  receipt(seq: number, stream: SseStream, nowMs: number): Receipt {
    const message = this.pending.get(seq);
    if (!message) return { outcome: 'unexpected' };
    const index = message.expected.indexOf(stream);
    if (index < 0) return { outcome: 'unexpected' };
    const count = ++message.receipts[index]!;
    return count === 1
      ? { outcome: 'first', latencyMs: nowMs - message.intendedMs, traceId: message.traceId, spanId: message.spanId }
      : { outcome: 'duplicate' };
  }

  /**
   * Resolves messages that every expected stream received, or whose window has passed (or all, with `force`). A stream that closed
   * before the deadline without receiving is excluded: it was not open for the whole window.
   * A forced sweep (end of run) likewise excludes streams whose window has not yet passed.
   * Resolved messages stay a further window to catch late duplicates, then are forgotten.
   */
  sweep(nowMs: number, force = false): Resolution {
    const total: Resolution = { expected: 0, received: 0, missing: 0 };
    for (const [seq, message] of this.pending) {
      // A stream that closed without it never will get it: waiting for its window proves nothing.
      const complete = message.receipts.every((count, i) => count > 0 || message.expected[i]!.state !== StreamState.Open);
      if (!message.resolved && (force || complete || nowMs >= message.deadlineMs)) {
        message.resolved = true;
        message.expected.forEach((stream, i) => {
          const received = message.receipts[i]! > 0;
          if (received) {
            total.expected++;
            total.received++;
          } else if (stream.state === StreamState.Open && nowMs >= message.deadlineMs) {
            total.expected++;
            total.missing++;
          }
        });
      }
      if (message.resolved && (force || nowMs >= message.deadlineMs + this.windowMs)) this.pending.delete(seq);
    }
    return total;
  }

  /** Messages whose delivery window is still open. */
  get unresolved(): number {
    let count = 0;
    for (const message of this.pending.values()) if (!message.resolved) count++;
    return count;
  }
}
