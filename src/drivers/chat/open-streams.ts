/**
 * The streams open right now, as the driver's counters see them: how many per role (the peak
 * gauges), the chat streams of each session (the injector's and the delivery tracker's), and
 * the stream-seconds they hold (CHAT.heldStreamUs, what load.achieved judges: docs/design.md
 * §5.4), integrated at every change of the open count, on every sweep and as each interval
 * closes, so the integral is exact and lands in the interval it was held in.
 */
import type { SseStream, StreamRole } from '../../engine/sse-reader.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import { CHAT } from '../../metrics/names.js';
import { ROLE_NAMES } from './role-names.js';

/**
 * The most of a session switch's gap (old stream closed, next one not yet open) that counts as
 * held once the next stream opens: a switch is planned client behaviour, and a healthy open
 * takes well under this (docs/design.md §5.4). An open that fails or times out is credited nothing.
 */
export const SWITCH_GAP_CREDIT_MS = 1_000;

export class OpenStreams {
  /** Open chat streams by session id. */
  private readonly bySession = new Map<string, SseStream[]>();
  private readonly count: Record<StreamRole, number> = { chat: 0, main: 0 };
  /** Until when the open streams have been added to CHAT.heldStreamUs (NaN before start). */
  private heldUntilMs = NaN;

  constructor(private readonly metrics: MetricSet) {}

  /** Starts counting held time from `nowMs`. */
  start(nowMs: number): void {
    this.heldUntilMs = nowMs;
  }

  /** Adds the streams held since the last call to CHAT.heldStreamUs. */
  countHeld(nowMs: number): void {
    if (Number.isNaN(this.heldUntilMs)) return;
    const open = this.count.chat + this.count.main;
    if (open > 0 && nowMs > this.heldUntilMs) this.metrics.inc(CHAT.heldStreamUs, Math.round(open * (nowMs - this.heldUntilMs) * 1_000));
    this.heldUntilMs = Math.max(this.heldUntilMs, nowMs);
  }

  /** A stream opened: counted, its peak gauge raised, and a chat stream listed under its session. */
  add(stream: SseStream, nowMs: number): void {
    this.countHeld(nowMs);
    this.metrics.peak(ROLE_NAMES[stream.role].open, ++this.count[stream.role]);
    if (stream.role === 'main') return;
    const list = this.bySession.get(stream.sessionId!) ?? [];
    list.push(stream);
    this.bySession.set(stream.sessionId!, list);
  }

  /** A switch's gap counts as held once the next stream is open, up to SWITCH_GAP_CREDIT_MS. */
  creditSwitchGap(switchedAtMs: number, openedAtMs: number): void {
    this.metrics.inc(CHAT.heldStreamUs, Math.round(Math.min(SWITCH_GAP_CREDIT_MS, Math.max(0, openedAtMs - switchedAtMs)) * 1_000));
  }

  /** An open stream closed or dropped (once per stream lifetime). */
  remove(stream: SseStream, nowMs: number): void {
    this.countHeld(nowMs);
    // Open until now in this interval: streams that close before its first sweep still show in its peak.
    this.metrics.peak(ROLE_NAMES[stream.role].open, this.count[stream.role]--);
    if (stream.role === 'main') return;
    const list = this.bySession.get(stream.sessionId!);
    if (!list) return;
    const at = list.indexOf(stream);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) this.bySession.delete(stream.sessionId!);
  }

  /** Open chat streams of a session right now. */
  ofSession(sessionId: string): readonly SseStream[] {
    return this.bySession.get(sessionId) ?? [];
  }

  /** The peak gauges, at least what is open now (an interval with no change still shows it). */
  publishPeaks(roles: readonly StreamRole[]): void {
    for (const role of roles) this.metrics.peak(ROLE_NAMES[role].open, this.count[role]);
  }
}
