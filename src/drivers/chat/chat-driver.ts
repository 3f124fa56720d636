/**
 * Holds every virtual participant's streams: opens them, switches sessions, notices stalls,
 * and reopens dropped streams with capped, jittered backoff. One sweep timer does all the
 * periodic work for all streams, so thousands of streams cost no timers of their own.
 */
import { performance } from 'node:perf_hooks';
import type { FailureCode } from '../../contract/failure-codes.js';
import { backoffDelayMs } from '../../engine/backoff.js';
import type { ScenarioContext } from '../../engine/scenario.js';
import { SseStream, type StreamHost, type StreamRequest, type StreamRole, StreamState } from '../../engine/sse-reader.js';
import { recordMs } from '../../metrics/histogram.js';
import { CHAT, MAIN } from '../../metrics/names.js';
import { redact } from '../../util/redact.js';
import { splitApiBase } from '../api-base.js';
import { DeliveryTracker } from './delivery-tracker.js';
import { sourceAddressesFor } from './source-addresses.js';
import { StreamObserver } from './stream-observer.js';
import { createParticipant, currentSession, type VirtualParticipant } from './virtual-participant.js';

export class ChatDriver implements StreamHost {
  readonly participants: VirtualParticipant[];
  readonly tracker: DeliveryTracker;
  private readonly observer: StreamObserver;
  private readonly origin: string;
  private readonly pathPrefix: string;
  private readonly sourceAddresses: string[];
  /** Open chat streams by session id, for the injector and delivery expectations. */
  private readonly bySession = new Map<string, SseStream[]>();
  private openChat = 0;
  private openMain = 0;
  private sweepTimer: NodeJS.Timeout | undefined;
  private stopping = false;

  constructor(
    private readonly ctx: ScenarioContext,
    readonly runTag: string,
    deliveryWindowMs: number,
  ) {
    ({ origin: this.origin, basePath: this.pathPrefix } = splitApiBase(ctx.apiBase));
    this.sourceAddresses = sourceAddressesFor(this.origin);
    const count = Math.min(ctx.profile.chatStreams.participants, ctx.fixtures.participants.length);
    this.participants = ctx.fixtures.participants.slice(0, count).map((p, i) => createParticipant(i, p, ctx.fixtures.apiKey));
    this.tracker = new DeliveryTracker(deliveryWindowMs);
    this.observer = new StreamObserver(ctx.metrics, this.tracker, {
      keepAlive: ctx.keepAlive,
      runTag,
    });
  }

  /** Starts the periodic sweep; streams open as participants are started. */
  start(): void {
    const sweepMs = Math.max(20, Math.min(250, this.ctx.keepAlive.intervalMs / 8));
    this.sweepTimer = setInterval(() => this.sweep(performance.now()), sweepMs);
  }

  /** Brings one participant online: its main stream and its first chat-session stream. */
  startParticipant(index: number): void {
    const participant = this.participants[index];
    if (!participant || this.stopping) return;
    if (this.ctx.profile.chatStreams.mainStream) this.openStream(participant, 'main');
    this.openStream(participant, 'chat');
  }

  /** Open chat streams of a session right now. */
  openStreamsOf(sessionId: string): readonly SseStream[] {
    return this.bySession.get(sessionId) ?? [];
  }

  /** A participant whose chat-session stream is open now, scanning from a random start (the injector's and churn's target). */
  pickOpenParticipant(random01: number): VirtualParticipant | null {
    const n = this.participants.length;
    const start = Math.floor(random01 * n);
    for (let k = 0; k < n; k++) {
      const participant = this.participants[(start + k) % n]!;
      if (participant.chat?.state === StreamState.Open) return participant;
    }
    return null;
  }

  private openStream(participant: VirtualParticipant, role: StreamRole): void {
    const userId = encodeURIComponent(participant.fixture.userId);
    const sessionId = role === 'chat' ? currentSession(participant) : null;
    const path =
      sessionId === null
        ? `${this.pathPrefix}/participants/${userId}/stream`
        : `${this.pathPrefix}/participants/${userId}/chat_sessions/${encodeURIComponent(sessionId)}/stream`;
    const stream = new SseStream(role, participant.index, sessionId);
    if (role === 'chat') {
      participant.chat = stream;
      participant.chatReopenAtMs = NaN;
    } else {
      participant.main = stream;
      participant.mainReopenAtMs = NaN;
    }
    const request: StreamRequest = {
      origin: this.origin,
      path,
      headers: participant.headers,
      headersTimeoutMs: this.ctx.profile.chatStreams.openTimeoutMs,
      maxFrameBytes: this.ctx.profile.chatStreams.maxFrameBytes,
      localAddress: this.sourceAddresses.length > 0 ? this.sourceAddresses[stream.id % this.sourceAddresses.length]! : null,
    };
    void stream.open(request, this);
  }

  onOpen(stream: SseStream, openLatencyMs: number): void {
    const m = this.ctx.metrics;
    if (stream.role === 'main') {
      m.inc(MAIN.opened);
      m.peak(MAIN.open, ++this.openMain);
      return;
    }
    m.inc(CHAT.opened);
    recordMs(m.histogram(CHAT.openLatencyUs), openLatencyMs);
    m.peak(CHAT.open, ++this.openChat);
    const list = this.bySession.get(stream.sessionId!) ?? [];
    list.push(stream);
    this.bySession.set(stream.sessionId!, list);
    const participant = this.participants[stream.participant]!;
    const switchEveryMs = this.ctx.profile.chatStreams.switchEveryMs;
    if (switchEveryMs > 0 && participant.fixture.chatSessionIds.length > 1) {
      // ±10% jitter keeps thousands of participants from switching in lockstep.
      participant.nextSwitchAtMs = stream.openedAtMs + switchEveryMs * (0.9 + 0.2 * Math.random());
    }
  }

  onOpenFailed(stream: SseStream, failure: FailureCode, detail: string): void {
    const m = this.ctx.metrics;
    m.inc(stream.role === 'main' ? MAIN.openFailed : CHAT.openFailed);
    m.inc(CHAT.openFailure(failure));
    m.sample(CHAT.samples, redact(`${stream.role} stream open failed (${failure}): ${detail}`));
    this.scheduleReopen(stream);
  }

  onDropped(stream: SseStream, failure: FailureCode, detail: string): void {
    const m = this.ctx.metrics;
    m.inc(stream.role === 'main' ? MAIN.dropped : CHAT.dropped);
    m.inc(CHAT.drop(failure));
    m.sample(CHAT.samples, redact(`${stream.role} stream dropped (${failure}): ${detail}`));
    this.forget(stream);
    this.scheduleReopen(stream);
  }

  onData(stream: SseStream, data: string, nowMs: number): void {
    if (this.observer.onData(stream, data, nowMs) && stream.keepAlives === 1) {
      // The first KEEP_ALIVE proves the stream healthy: reset its backoff.
      const participant = this.participants[stream.participant]!;
      if (stream.role === 'chat') participant.chatAttempts = 0;
      else participant.mainAttempts = 0;
    }
  }

  private scheduleReopen(stream: SseStream): void {
    if (this.stopping) return;
    const participant = this.participants[stream.participant]!;
    const { reopenBaseMs, reopenMaxMs } = this.ctx.profile.chatStreams;
    const attempt = stream.role === 'chat' ? participant.chatAttempts++ : participant.mainAttempts++;
    const atMs = performance.now() + backoffDelayMs(attempt, reopenBaseMs, reopenMaxMs, Math.random());
    if (stream.role === 'chat') participant.chatReopenAtMs = atMs;
    else participant.mainReopenAtMs = atMs;
  }

  /** Removes a stream from the open-stream bookkeeping (once per stream lifetime). */
  private forget(stream: SseStream): void {
    if (Number.isNaN(stream.openedAtMs)) return;
    this.observer.onClosed(stream, performance.now());
    if (stream.role === 'main') {
      this.openMain--;
      return;
    }
    this.openChat--;
    const list = this.bySession.get(stream.sessionId!);
    if (!list) return;
    const at = list.indexOf(stream);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) this.bySession.delete(stream.sessionId!);
  }

  /** Closes a stream from our side and forgets it. */
  private closeStream(stream: SseStream): void {
    const wasOpen = stream.state === StreamState.Open;
    stream.close();
    if (wasOpen) this.forget(stream);
  }

  /** The one periodic pass: stalls, switches, reopens, gauges, delivery deadlines. */
  private sweep(nowMs: number): void {
    const m = this.ctx.metrics;
    // The stall window; StreamObserver.onClosed counts the streams that outlived it.
    const stallMs = 2 * this.ctx.keepAlive.intervalMs;
    for (const participant of this.participants) {
      if (participant.main) this.checkStall(participant.main, nowMs, stallMs);
      if (participant.chat) this.checkStall(participant.chat, nowMs, stallMs);
      if (this.stopping) continue;
      if (participant.chat?.state === StreamState.Open && nowMs >= participant.nextSwitchAtMs) {
        this.closeStream(participant.chat);
        participant.sessionCursor++;
        m.inc(CHAT.switches);
        this.openStream(participant, 'chat');
      }
      if (nowMs >= participant.chatReopenAtMs) {
        m.inc(CHAT.reopened);
        this.openStream(participant, 'chat');
      }
      if (nowMs >= participant.mainReopenAtMs) {
        m.inc(CHAT.reopened);
        this.openStream(participant, 'main');
      }
    }
    m.peak(CHAT.open, this.openChat);
    m.peak(MAIN.open, this.openMain);
    this.resolveDeliveries(nowMs, false);
  }

  /** A stream silent for 2 × the KEEP_ALIVE interval is stalled: count it, and reconnect as a client would. */
  private checkStall(stream: SseStream, nowMs: number, stallMs: number): void {
    if (stream.state !== StreamState.Open || nowMs - stream.lastFrameAtMs <= stallMs) return;
    const m = this.ctx.metrics;
    m.inc(CHAT.stalled);
    m.sample(CHAT.samples, `${stream.role} stream ${stream.sessionId ?? ''} silent for ${(nowMs - stream.lastFrameAtMs).toFixed(0)} ms`);
    this.closeStream(stream);
    this.scheduleReopen(stream);
  }

  resolveDeliveries(nowMs: number, force: boolean): void {
    const resolution = this.tracker.sweep(nowMs, force);
    if (resolution.expected === 0) return;
    const m = this.ctx.metrics;
    m.inc(CHAT.deliveriesExpected, resolution.expected);
    if (resolution.missing > 0) {
      m.inc(CHAT.deliveriesMissing, resolution.missing);
      m.sample(CHAT.samples, `${resolution.missing} message deliveries missing after the delivery window`);
    }
  }

  /** Stops reopening and switching; streams stay open for the drain. */
  beginStop(): void {
    this.stopping = true;
  }

  /** Resolves every outstanding delivery and closes every stream. */
  closeAll(): void {
    this.stopping = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.resolveDeliveries(performance.now(), true);
    for (const participant of this.participants) {
      if (participant.main) this.closeStream(participant.main);
      if (participant.chat) this.closeStream(participant.chat);
    }
  }
}
