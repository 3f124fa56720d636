/**
 * Holds every virtual participant's streams: opens them, switches sessions, notices stalls,
 * and reopens dropped streams with capped, jittered backoff. One sweep timer does all the
 * periodic work for all streams, so thousands of streams cost no timers of their own.
 * Beside it: what an open sends (stream-requests.ts), the open streams and the stream-seconds
 * they hold (open-streams.ts), what the sweep judges on a stream (stream-health.ts), and when a
 * role reconnects (role-reconnect.ts).
 */
import { performance } from 'node:perf_hooks';
import { type FailureCode, statusFailure } from '../../contract/failure-codes.js';
import type { ScenarioContext } from '../../engine/scenario.js';
import { SseStream, STREAM_ROLES, type StreamHost, type StreamRole, StreamState } from '../../engine/sse-reader.js';
import { recordMs } from '../../metrics/histogram.js';
import { CHAT } from '../../metrics/names.js';
import { DeliveryTracker } from './delivery-tracker.js';
import { OpenStreams } from './open-streams.js';
import type { ParticipantConnections } from './participant-connections.js';
import { ResumeWatch } from './resume-watch.js';
import { ROLE_NAMES } from './role-names.js';
import { carryResumeState, forgetRole, noteReconnect, scheduleReopen } from './role-reconnect.js';
import { countStall, openCutAtEndDetail, openTimeoutDetail } from './stream-health.js';
import { StreamObserver } from './stream-observer.js';
import { StreamRequests } from './stream-requests.js';
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

export class ChatDriver implements StreamHost {
  readonly participants: VirtualParticipant[];
  readonly tracker: DeliveryTracker;
  private readonly observer: StreamObserver;
  private readonly resume = new ResumeWatch();
  private readonly requests: StreamRequests;
  private readonly open: OpenStreams;
  private sweepTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  /** Participants brought online by setPopulation (a prefix of `participants`). */
  private onlineCount = 0;

  constructor(
    private readonly ctx: ScenarioContext,
    readonly runTag: string,
    deliveryWindowMs: number,
  ) {
    this.requests = new StreamRequests(ctx);
    this.open = new OpenStreams(ctx.metrics);
    const count = Math.min(ctx.profile.chatStreams.participants, ctx.fixtures.participants.length);
    this.participants = ctx.fixtures.participants.slice(0, count).map((p, i) => createParticipant(i, p, ctx.fixtures.apiKey));
    this.tracker = new DeliveryTracker(deliveryWindowMs);
    this.observer = new StreamObserver(ctx.metrics, this.tracker, {
      keepAlive: ctx.keepAlive,
      runTag,
    });
  }

  /** Participants' own HTTP/2 connections (none under HTTP/1.1). */
  get connections(): ParticipantConnections {
    return this.requests.connections;
  }

  /** Starts the periodic sweep; streams open as participants are started. */
  start(): void {
    const sweepMs = Math.max(20, Math.min(250, this.ctx.keepAlive.intervalMs / 8));
    this.open.start(performance.now());
    // Held time up to each interval's edge lands in that interval, not the next sweep's.
    this.ctx.onIntervalClose?.((nowMs) => this.open.countHeld(nowMs));
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

  /** Open chat streams of a session right now. */
  openStreamsOf(sessionId: string): readonly SseStream[] {
    return this.open.ofSession(sessionId);
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
    const stream = new SseStream(role, participant.index, role === 'chat' ? currentSession(participant) : null);
    const state = participant.roles[role];
    state.stream = stream;
    state.reopenAtMs = NaN;
    const authorization = authorizationOf(participant);
    state.sentAuthorization = authorization;
    void stream.open(this.requests.requestFor(participant, stream, state, authorization), this);
  }

  onOpen(stream: SseStream, openLatencyMs: number): void {
    const m = this.ctx.metrics;
    const state = this.participants[stream.participant]!.roles[stream.role];
    state.renewedOpen = false;
    m.inc(ROLE_NAMES[stream.role].opened);
    this.open.add(stream, performance.now());
    if (!Number.isNaN(state.switchedAtMs)) {
      this.open.creditSwitchGap(state.switchedAtMs, stream.openedAtMs);
      state.switchedAtMs = NaN;
    }
    if (stream.resumedFrom !== null) this.resume.onOpen(stream, m);
    if (stream.role === 'main') return;
    recordMs(m.histogram(CHAT.openLatencyUs), openLatencyMs);
    const participant = this.participants[stream.participant]!;
    const switchEveryMs = this.ctx.profile.chatStreams.switchEveryMs;
    if (switchEveryMs > 0 && participant.fixture.chatSessionIds.length > 1) {
      participant.nextSwitchAtMs = stream.openedAtMs + switchEveryMs * switchFraction(participant.nextSwitchAtMs === Infinity);
    }
  }

  onOpenFailed(stream: SseStream, failure: FailureCode, detail: string, gatewayPage: string | null = null): void {
    const state = this.participants[stream.participant]!.roles[stream.role];
    if (gatewayPage !== null) {
      // Counted beside its status: stream.open says the gateway answered, not the API.
      this.ctx.metrics.inc(CHAT.openGatewayPages);
      this.ctx.metrics.sample(CHAT.gatewayPageSamples, gatewayPage);
    }
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
    m.sample(CHAT.samples, `${stream.role} stream open failed (${failure}): ${detail}`);
    this.scheduleReopen(stream);
  }

  onDropped(stream: SseStream, failure: FailureCode, detail: string): void {
    const m = this.ctx.metrics;
    m.inc(ROLE_NAMES[stream.role].dropped);
    m.inc(CHAT.drop(failure));
    m.sample(CHAT.samples, `${stream.role} stream dropped (${failure}): ${detail}`);
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
    this.open.remove(stream, nowMs);
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
    this.open.countHeld(nowMs);
    for (const participant of this.participants) {
      for (const role of STREAM_ROLES) {
        const stream = participant.roles[role].stream;
        if (!stream) continue;
        if (countStall(m, stream, nowMs, stallMs)) this.reopenStalled(stream);
        const timedOut = openTimeoutDetail(stream, nowMs, this.ctx.profile.chatStreams.openTimeoutMs);
        // Failed like any open, and reopened with backoff.
        if (timedOut !== null) stream.abandonOpen(this, 'timeout:headers', timedOut);
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
    this.open.publishPeaks(STREAM_ROLES);
    this.resolveDeliveries(nowMs, false);
  }

  /** Streams still waiting for their response headers. */
  opensPending(): number {
    let pending = 0;
    for (const participant of this.participants) for (const role of STREAM_ROLES) if (participant.roles[role].stream?.opening) pending++;
    return pending;
  }

  /** A stalled stream is closed and reconnected, as a client would. */
  private reopenStalled(stream: SseStream): void {
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
    this.open.countHeld(nowMs);
    for (const participant of this.participants) {
      for (const role of STREAM_ROLES) {
        const stream = participant.roles[role].stream;
        if (!stream) continue;
        if (stream.opening) stream.abandonOpen(this, 'timeout:headers', openCutAtEndDetail(stream, nowMs));
        else this.closeStream(stream);
      }
    }
    this.connections.closeAll();
  }
}
