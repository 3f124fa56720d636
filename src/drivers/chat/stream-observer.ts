/**
 * What the driver learns from each frame: KEEP_ALIVE cadence, schema validity, session
 * isolation and message delivery, and at each stream's end whether it lived long enough to
 * have shown a stall. Called for every frame of every stream, so it allocates nothing per
 * KEEP_ALIVE and keeps its counters in the interval MetricSet.
 */
import type { KeepAliveExpectation } from '../../contract/keep-alive.js';
import type { SseStream } from '../../engine/sse-reader.js';
import { recordMs } from '../../metrics/histogram.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import { CHAT, MAIN } from '../../metrics/names.js';
import { DELIVERY_SLOWEST_KEY } from '../../metrics/slowest.js';
import { printable } from '../../util/printable.js';
import { redactedStart } from '../../util/redact.js';
import type { DeliveryTracker } from './delivery-tracker.js';
import { validateEvent } from './event-validator.js';

/** Matches the correlation token the injector writes into each message text. */
const TOKEN = /\bcb:([A-Za-z0-9]+):(\d+)\b/;

/**
 * Two KEEP_ALIVEs (or the headers and the first one) closer than a tenth of the interval were
 * held and released together (docs/design.md §6): an intermediary buffering the stream.
 */
const BUNCHED_SHARE = 10;

export interface ObserverSettings {
  keepAlive: KeepAliveExpectation;
  /** This run's (or worker's) tag: tokens of other runs are not ours to account. */
  runTag: string;
}

export class StreamObserver {
  constructor(
    private readonly metrics: MetricSet,
    private readonly tracker: DeliveryTracker,
    private readonly settings: ObserverSettings,
  ) {}

  /** Handles one SSE `data` field. Returns true when it was a KEEP_ALIVE (proof of health). */
  onData(stream: SseStream, data: string, nowMs: number): boolean {
    const m = this.metrics;
    const event = validateEvent(data);
    const chat = stream.role === 'chat';
    if (!event.ok) {
      m.inc(chat ? CHAT.event('<invalid>') : MAIN.event('<invalid>'));
      m.inc(CHAT.schemaViolations);
      m.inc(CHAT.schemaViolation(event.violation));
      // printable() copies characters; a slice would keep the whole frame (up to maxFrameBytes) alive with the sample.
      // Masked before the cut: a token cut in two would not be found afterwards.
      m.sample(CHAT.samples, `${stream.role} stream ${stream.sessionId ?? ''}: ${event.violation} "${printable(redactedStart(data, 80), 80)}"`);
      return false;
    }
    m.inc(chat ? CHAT.event(event.eventType) : MAIN.event(event.eventType));
    if (event.eventType === 'KEEP_ALIVE') {
      this.keepAlive(stream, nowMs);
      return true;
    }
    if (!chat) return false;
    if ('messages' in event) {
      for (const message of event.messages) {
        if (message.chatSessionId !== stream.sessionId) this.isolation(stream, message.chatSessionId);
        else this.delivery(stream, message.text, nowMs);
      }
    } else if ('sessionId' in event && event.sessionId !== stream.sessionId) {
      this.isolation(stream, event.sessionId);
    }
    return false;
  }

  private keepAlive(stream: SseStream, nowMs: number): void {
    const m = this.metrics;
    const { intervalMs: expectKeepAliveMs } = this.settings.keepAlive;
    m.inc(CHAT.keepAlives);
    if (Number.isNaN(stream.lastKeepAliveAtMs)) {
      this.firstKeepAlive(stream, nowMs);
    } else {
      const { toleranceMs } = this.settings.keepAlive;
      const gapMs = nowMs - stream.lastKeepAliveAtMs;
      recordMs(m.histogram(CHAT.keepAliveGapUs), gapMs);
      if (gapMs > stream.worstGapMs) stream.worstGapMs = gapMs;
      if (Math.abs(gapMs - expectKeepAliveMs) > toleranceMs) {
        m.inc(CHAT.keepAliveViolations);
        // Two frames a target schedules an interval apart cannot come this close unless something held them.
        if (gapMs < expectKeepAliveMs / BUNCHED_SHARE) m.inc(CHAT.keepAliveBunched);
        m.sample(CHAT.samples, `KEEP_ALIVE gap ${gapMs.toFixed(0)} ms (expected ${expectKeepAliveMs} ± ${toleranceMs})`);
      }
    }
    stream.lastKeepAliveAtMs = nowMs;
    stream.keepAlives++;
  }

  /**
   * The first KEEP_ALIVE (docs/design.md §6): late when it comes later than expected +
   * tolerance after the headers, early when earlier than expected − tolerance after the
   * request was sent. An intermediary that holds the headers until the first event then
   * shows as a slow open (openLatencyMs) and is counted here, not as an early cadence.
   */
  private firstKeepAlive(stream: SseStream, nowMs: number): void {
    const m = this.metrics;
    const { intervalMs: expectKeepAliveMs, toleranceMs } = this.settings.keepAlive;
    const afterHeadersMs = nowMs - stream.openedAtMs;
    const afterRequestMs = nowMs - stream.requestAtMs;
    recordMs(m.histogram(CHAT.firstKeepAliveUs), afterHeadersMs);
    recordMs(m.histogram(CHAT.firstKeepAliveFromRequestUs), afterRequestMs);
    const late = afterHeadersMs > expectKeepAliveMs + toleranceMs;
    // Early counts as much as late: a KEEP_ALIVE sent with the headers proves no cadence.
    const early = afterRequestMs < expectKeepAliveMs - toleranceMs;
    if (late || early) {
      m.inc(late ? CHAT.firstKeepAliveLate : CHAT.firstKeepAliveEarly);
      const measured = late ? `${afterHeadersMs.toFixed(0)} ms after the headers` : `${afterRequestMs.toFixed(0)} ms after the request`;
      m.sample(CHAT.samples, `first KEEP_ALIVE ${measured} (expected ${expectKeepAliveMs} ± ${toleranceMs})`);
    } else if (afterHeadersMs < expectKeepAliveMs / BUNCHED_SHARE) {
      m.inc(CHAT.firstKeepAliveWithHeaders);
    }
  }

  /**
   * A stream that carried events but closed with no KEEP_ALIVE, later than expected + tolerance
   * after its headers: its first KEEP_ALIVE is late, though it never came (a target whose
   * events keep the stream from stalling, but which sends no KEEP_ALIVE at all). A stream that
   * got no event, or none for the stall window before it closed, is stream.stall's, not the
   * cadence's.
   */
  private firstKeepAliveNeverCame(stream: SseStream, nowMs: number): void {
    const { intervalMs: expectKeepAliveMs, toleranceMs } = this.settings.keepAlive;
    const afterHeadersMs = nowMs - stream.openedAtMs;
    const carriedEvents = stream.lastFrameAtMs > stream.openedAtMs && nowMs - stream.lastFrameAtMs <= 2 * expectKeepAliveMs;
    if (stream.keepAlives > 0 || !carriedEvents || !(afterHeadersMs > expectKeepAliveMs + toleranceMs)) return;
    this.metrics.inc(CHAT.firstKeepAliveLate);
    this.metrics.sample(
      CHAT.samples,
      `no KEEP_ALIVE in the ${afterHeadersMs.toFixed(0)} ms the stream was open (expected ${expectKeepAliveMs} ± ${toleranceMs})`,
    );
  }

  private isolation(stream: SseStream, otherSession: string): void {
    this.metrics.inc(CHAT.isolationViolations);
    this.metrics.sample(CHAT.samples, `stream of session ${stream.sessionId} carried an event of session ${otherSession}`);
  }

  private delivery(stream: SseStream, text: string, nowMs: number): void {
    const match = TOKEN.exec(text);
    if (!match || match[1] !== this.settings.runTag) return;
    const receipt = this.tracker.receipt(Number(match[2]), stream, nowMs);
    if (receipt.outcome === 'first') {
      this.metrics.inc(CHAT.deliveriesReceived);
      recordMs(this.metrics.histogram(CHAT.eventLatencyUs), receipt.latencyMs);
      // The worst deliveries name the injected message's trace (docs/design.md §2.12).
      if (receipt.traceId !== null) this.metrics.slow(DELIVERY_SLOWEST_KEY, receipt.traceId, receipt.latencyMs, receipt.spanId ?? undefined);
    } else if (receipt.outcome === 'duplicate') {
      this.metrics.inc(CHAT.duplicates);
      this.metrics.sample(CHAT.samples, `message ${match[0]} delivered twice on session ${stream.sessionId}`);
    }
  }

  /** Called when a stream's lifetime ends, whatever the reason. */
  onClosed(stream: SseStream, nowMs: number): void {
    if (stream.keepAlives >= 2) recordMs(this.metrics.histogram(CHAT.worstGapUs), stream.worstGapMs);
    this.firstKeepAliveNeverCame(stream, nowMs);
    // Only a stream open longer than the stall window could have shown a stall (stream.stall's evidence).
    if (nowMs - stream.openedAtMs > 2 * this.settings.keepAlive.intervalMs) this.metrics.inc(CHAT.streamsPastStallWindow);
  }
}

/** The text of an injected message: a readable prefix and the correlation token. */
export function correlationText(runTag: string, seq: number): string {
  return `coachbench load message cb:${runTag}:${seq}`;
}
