/**
 * Holds every virtual participant's streams: opens them, switches sessions, notices stalls,
 * and reopens dropped streams with capped, jittered backoff. One sweep timer does all the
 * periodic work for all streams, so thousands of streams cost no timers of their own.
 */
import { performance } from 'node:perf_hooks';
import { type FailureCode, statusFailure } from '../../contract/failure-codes.js';
import type { WireProtocol } from '../../engine/http-agent.js';
import type { ScenarioContext } from '../../engine/scenario.js';
import { SseStream, STREAM_ROLES, type StreamHost, type StreamRequest, type StreamRole, StreamState } from '../../engine/sse-reader.js';
import { recordMs } from '../../metrics/histogram.js';
import { CHAT, connectionsName, MAIN } from '../../metrics/names.js';
import { redact } from '../../util/redact.js';
import { splitApiBase } from '../api-base.js';
import { DeliveryTracker } from './delivery-tracker.js';
import { ParticipantConnections } from './participant-connections.js';
import { ResumeWatch } from './resume-watch.js';
import { carryResumeState, forgetRole, noteReconnect, scheduleReopen } from './role-reconnect.js';
import { sourceAddressesFor } from './source-addresses.js';
import { StreamObserver } from './stream-observer.js';
import {
  authorizationOf,
  chatStreamOf,
  createParticipant,
  currentSession,
  type RoleState,
  switchFraction,
  type VirtualParticipant,
} from './virtual-participant.js';

const UNAUTHORIZED = statusFailure(401);

/**
 * The most of a session switch's gap (old stream closed, next one not yet open) that counts as
 * held once the next stream opens: a switch is planned client behaviour, and a healthy open
 * takes well under this (docs/design.md §5.4). An open that fails or times out is credited nothing.
 */
export const SWITCH_GAP_CREDIT_MS = 1_000;

/** The counters both roles have, by role (CHAT also holds the chat-only ones). */
const ROLE_NAMES: Record<StreamRole, Record<'opened' | 'openFailed' | 'dropped' | 'open', string>> = { chat: CHAT, main: MAIN };

export class ChatDriver implements StreamHost {
  readonly participants: VirtualParticipant[];
  readonly tracker: DeliveryTracker;
  private readonly observer: StreamObserver;
  private readonly resume = new ResumeWatch();
  private readonly origin: string;
  private readonly pathPrefix: string;
  private readonly sourceAddresses: string[];
  /** Participants' own HTTP/2 connections (none under HTTP/1.1). */
  readonly connections: ParticipantConnections;
  /** Open chat streams by session id, for the injector and delivery expectations. */
  private readonly bySession = new Map<string, SseStream[]>();
  /** Open streams per role, for the peak gauges. */
  private readonly openCount: Record<StreamRole, number> = { chat: 0, main: 0 };
  /** Until when the open streams have been added to CHAT.heldStreamUs (NaN before start). */
  private heldUntilMs = NaN;
  private sweepTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  /** Participants brought online by setPopulation (a prefix of `participants`). */
  private onlineCount = 0;

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
    this.connections = new ParticipantConnections(ctx, this.origin, ctx.profile.chatStreams.openTimeoutMs);
    this.observer = new StreamObserver(ctx.metrics, this.tracker, {
      keepAlive: ctx.keepAlive,
      runTag,
    });
  }

  /** Starts the periodic sweep; streams open as participants are started. */
  start(): void {
    const sweepMs = Math.max(20, Math.min(250, this.ctx.keepAlive.intervalMs / 8));
    this.heldUntilMs = performance.now();
    // Held time up to each interval's edge lands in that interval, not the next sweep's.
    this.ctx.onIntervalClose?.((nowMs) => this.countHeld(nowMs));
    this.sweepTimer = setInterval(() => this.sweep(performance.now()), sweepMs);
  }

  /** Brings one participant online: its main stream and its first chat-session stream. */
  startParticipant(index: number): void {
    const participant = this.participants[index];
    if (!participant || this.stopping || participant.online) return;
    participant.online = true;
    if (this.ctx.profile.chatStreams.mainStream) this.openStream(participant, 'main');
    this.openStream(participant, 'chat');
  }

  /**
   * Follows a planned population (docs/design.md §2.11): the participants whose rank in the
   * whole run is below `population` are online. Participants are held in rank order, so the
   * online ones are always a prefix: growing starts the next, shrinking lets the last leave.
   * At most `maxChanges` join or leave per call, so a step of thousands is spread over a few
   * ticks instead of stalling the loop that times every other request and event.
   */
  setPopulation(population: number, maxChanges = Number.POSITIVE_INFINITY): void {
    if (this.stopping) return;
    const list = this.participants;
    let changes = 0;
    while (changes++ < maxChanges && this.onlineCount < list.length && list[this.onlineCount]!.rank < population) this.startParticipant(this.onlineCount++);
    while (changes++ < maxChanges && this.onlineCount > 0 && list[this.onlineCount - 1]!.rank >= population) this.leave(list[--this.onlineCount]!);
  }

  /** A participant leaves as a real client does: closes its streams, reopens nothing. Counted, never a failure. */
  private leave(participant: VirtualParticipant): void {
    participant.online = false;
    participant.nextSwitchAtMs = Infinity;
    for (const role of STREAM_ROLES) {
      const state = participant.roles[role];
      forgetRole(state);
      if (state.stream?.state === StreamState.Open) this.ctx.metrics.inc(CHAT.leftByPlan);
      if (state.stream) this.closeStream(state.stream);
    }
    this.connections.close(participant);
  }

  private readonly countStreamConnection = (protocol: WireProtocol): void => this.ctx.metrics.inc(connectionsName('streams', protocol));

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
      if (chatStreamOf(participant)?.state === StreamState.Open) return participant;
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
    const state = participant.roles[role];
    state.stream = stream;
    state.reopenAtMs = NaN;
    state.sentAuthorization = authorizationOf(participant);
    // A participant's own connection keeps one source address; a stream's own connection spreads them.
    const spreadKey = this.connections.enabled ? participant.index : stream.id;
    const localAddress = this.sourceAddresses.length > 0 ? this.sourceAddresses[spreadKey % this.sourceAddresses.length]! : null;
    const connection = this.connections.of(participant, localAddress);
    const request: StreamRequest = {
      origin: this.origin,
      path,
      headers: { ...participant.headers, authorization: state.sentAuthorization },
      headersTimeoutMs: this.ctx.profile.chatStreams.openTimeoutMs,
      maxFrameBytes: this.ctx.profile.chatStreams.maxFrameBytes,
      localAddress,
      transport: this.ctx.transport,
      // A reconnect to the same stream asks the target to resume after what it last saw (WHATWG EventSource).
      lastEventId: state.lastEventId,
      ...(connection ? { dispatcher: connection } : { onProtocol: this.countStreamConnection }),
    };
    void stream.open(request, this);
  }

  /**
   * Adds the streams held since the last call to CHAT.heldStreamUs: called before every change
   * of the open count, on every sweep and as each interval closes, so the integral is exact and
   * lands in the interval it was held in.
   */
  private countHeld(nowMs: number): void {
    if (Number.isNaN(this.heldUntilMs)) return;
    const open = this.openCount.chat + this.openCount.main;
    if (open > 0 && nowMs > this.heldUntilMs) this.ctx.metrics.inc(CHAT.heldStreamUs, Math.round(open * (nowMs - this.heldUntilMs) * 1_000));
    this.heldUntilMs = Math.max(this.heldUntilMs, nowMs);
  }

  onOpen(stream: SseStream, openLatencyMs: number): void {
    const m = this.ctx.metrics;
    this.countHeld(performance.now());
    const state = this.participants[stream.participant]!.roles[stream.role];
    state.renewedOpen = false;
    const names = ROLE_NAMES[stream.role];
    m.inc(names.opened);
    m.peak(names.open, ++this.openCount[stream.role]);
    // A switch's gap counts as held once the next stream is open, up to SWITCH_GAP_CREDIT_MS.
    if (!Number.isNaN(state.switchedAtMs)) {
      m.inc(CHAT.heldStreamUs, Math.round(Math.min(SWITCH_GAP_CREDIT_MS, Math.max(0, stream.openedAtMs - state.switchedAtMs)) * 1_000));
      state.switchedAtMs = NaN;
    }
    if (stream.resumedFrom !== null) this.resume.onOpen(stream, m);
    if (stream.role === 'main') return;
    recordMs(m.histogram(CHAT.openLatencyUs), openLatencyMs);
    const list = this.bySession.get(stream.sessionId!) ?? [];
    list.push(stream);
    this.bySession.set(stream.sessionId!, list);
    const participant = this.participants[stream.participant]!;
    const switchEveryMs = this.ctx.profile.chatStreams.switchEveryMs;
    if (switchEveryMs > 0 && participant.fixture.chatSessionIds.length > 1) {
      participant.nextSwitchAtMs = stream.openedAtMs + switchEveryMs * switchFraction(participant.nextSwitchAtMs === Infinity);
    }
  }

  onOpenFailed(stream: SseStream, failure: FailureCode, detail: string): void {
    const state = this.participants[stream.participant]!.roles[stream.role];
    if (failure === UNAUTHORIZED && this.ctx.credentials !== null) {
      if (!state.renewedOpen) return void this.reopenRenewed(stream, state, failure, detail);
      this.ctx.credentials.rejectedAfterRefresh(`a ${stream.role} stream opened again with its renewed token was answered 401`);
    }
    state.renewedOpen = false;
    this.countOpenFailure(stream, failure, detail);
  }

  /** A 401 to an open: the token is renewed when it can be and the stream opened again at once, else it counts as failed. */
  private async reopenRenewed(stream: SseStream, state: RoleState, failure: FailureCode, detail: string): Promise<void> {
    const renewed = await this.ctx.credentials!.renew(state.sentAuthorization ?? undefined);
    if (renewed === null) return this.countOpenFailure(stream, failure, detail);
    const participant = this.participants[stream.participant]!;
    if (this.stopping || !participant.online) return;
    state.renewedOpen = true;
    // The sweep opens it on its next tick, with the participant's renewed token.
    state.reopenAtMs = performance.now();
  }

  private countOpenFailure(stream: SseStream, failure: FailureCode, detail: string): void {
    const m = this.ctx.metrics;
    // A switch whose next stream did not open held nothing in its gap.
    this.participants[stream.participant]!.roles[stream.role].switchedAtMs = NaN;
    m.inc(ROLE_NAMES[stream.role].openFailed);
    m.inc(CHAT.openFailure(failure));
    m.sample(CHAT.samples, redact(`${stream.role} stream open failed (${failure}): ${detail}`));
    this.scheduleReopen(stream);
  }

  onDropped(stream: SseStream, failure: FailureCode, detail: string): void {
    const m = this.ctx.metrics;
    m.inc(ROLE_NAMES[stream.role].dropped);
    m.inc(CHAT.drop(failure));
    m.sample(CHAT.samples, redact(`${stream.role} stream dropped (${failure}): ${detail}`));
    this.forget(stream);
    const state = this.participants[stream.participant]!.roles[stream.role];
    state.droppedAtMs = performance.now();
    carryResumeState(state, stream);
    this.scheduleReopen(stream, true);
  }

  onData(stream: SseStream, data: string, nowMs: number, id: string | undefined): void {
    this.resume.onEvent(stream, id, this.ctx.metrics);
    if (this.observer.onData(stream, data, nowMs) && stream.keepAlives === 1) {
      // The first KEEP_ALIVE proves the stream healthy: reset its backoff.
      this.participants[stream.participant]!.roles[stream.role].attempts = 0;
    }
  }

  /** Reopens the stream's role later (role-reconnect.ts), unless the run is stopping or the participant left. */
  private scheduleReopen(stream: SseStream, afterDrop = false): void {
    const participant = this.participants[stream.participant]!;
    if (this.stopping || !participant.online) return;
    scheduleReopen(participant.roles[stream.role], afterDrop, this.ctx.profile.chatStreams, performance.now());
  }

  /** Removes a stream from the open-stream bookkeeping (once per stream lifetime). */
  private forget(stream: SseStream): void {
    if (Number.isNaN(stream.openedAtMs)) return;
    const nowMs = performance.now();
    this.observer.onClosed(stream, nowMs);
    this.countHeld(nowMs);
    this.openCount[stream.role]--;
    if (stream.role === 'main') return;
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
    this.countHeld(nowMs);
    for (const participant of this.participants) {
      for (const role of STREAM_ROLES) {
        const stream = participant.roles[role].stream;
        if (stream) {
          this.checkStall(stream, nowMs, stallMs);
          this.checkOpenTimeout(stream, nowMs);
        }
      }
      if (this.stopping || !participant.online) continue;
      const chat = chatStreamOf(participant);
      if (chat?.state === StreamState.Open && nowMs >= participant.nextSwitchAtMs) {
        this.closeStream(chat);
        participant.sessionCursor++;
        m.inc(CHAT.switches);
        // Another session is another stream: nothing to resume.
        participant.roles.chat.lastEventId = null;
        participant.roles.chat.switchedAtMs = nowMs;
        this.openStream(participant, 'chat');
      }
      for (const role of STREAM_ROLES) {
        // reopenAtMs is NaN when nothing is scheduled, and every comparison with NaN is false.
        if (!(nowMs >= participant.roles[role].reopenAtMs)) continue;
        // One counter for both roles: report.json's chatStreams.reopened counts every reopen.
        m.inc(CHAT.reopened);
        noteReconnect(participant.roles[role], nowMs, m);
        this.openStream(participant, role);
      }
    }
    for (const role of STREAM_ROLES) m.peak(ROLE_NAMES[role].open, this.openCount[role]);
    this.resolveDeliveries(nowMs, false);
  }

  /**
   * An open waiting longer than the open timeout for its response headers fails as
   * `timeout:headers`, whatever it waits on (a connection, a proxy's queue, the target), and is
   * reopened with backoff like any failed open.
   */
  private checkOpenTimeout(stream: SseStream, nowMs: number): void {
    const timeoutMs = this.ctx.profile.chatStreams.openTimeoutMs;
    if (!stream.opening || nowMs - stream.requestAtMs <= timeoutMs) return;
    stream.abandonOpen(
      this,
      'timeout:headers',
      `timeout:headers: no response headers within ${timeoutMs} ms (waiting for a connection, a proxy or the target)`,
    );
  }

  /** Streams still waiting for their response headers. */
  opensPending(): number {
    let pending = 0;
    for (const participant of this.participants) for (const role of STREAM_ROLES) if (participant.roles[role].stream?.opening) pending++;
    return pending;
  }

  /** A stream silent for 2 × the KEEP_ALIVE interval is stalled: count it, and reconnect as a client would. */
  private checkStall(stream: SseStream, nowMs: number, stallMs: number): void {
    if (stream.state !== StreamState.Open || nowMs - stream.lastFrameAtMs <= stallMs) return;
    const m = this.ctx.metrics;
    m.inc(CHAT.stalled);
    // Headers and then nothing, on a connection still open: the signature of a buffering intermediary (docs/failure-codes.md).
    if (!stream.sawBody) m.inc(CHAT.stalledSilentAfterHeaders);
    m.sample(CHAT.samples, `${stream.role} stream ${stream.sessionId ?? ''} silent for ${(nowMs - stream.lastFrameAtMs).toFixed(0)} ms`);
    this.closeStream(stream);
    carryResumeState(this.participants[stream.participant]!.roles[stream.role], stream);
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
    const nowMs = performance.now();
    this.resolveDeliveries(nowMs, true);
    this.countHeld(nowMs);
    for (const participant of this.participants) {
      for (const role of STREAM_ROLES) {
        const stream = participant.roles[role].stream;
        if (!stream) continue;
        // An open still waiting when the run ends failed to open in the time it had: never nothing.
        if (stream.opening) {
          const waitedMs = Math.round(nowMs - stream.requestAtMs);
          stream.abandonOpen(this, 'timeout:headers', `timeout:headers: still waiting for response headers when the run ended, after ${waitedMs} ms`);
        } else this.closeStream(stream);
      }
    }
    this.connections.closeAll();
  }
}
