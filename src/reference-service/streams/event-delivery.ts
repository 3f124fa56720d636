/**
 * The in-process EventHub: applies the `latency` and `leak` faults, then writes each event to
 * the session's chat streams (and the participant's main streams when asked).
 */
import { performance } from 'node:perf_hooks';
import { chance, type FaultSettings } from '../faults/faults.js';
import type { DelayScheduler } from '../faults/precise-delay.js';
import { participantKey, ReplayLog, sessionKey } from './replay-log.js';
import type { EventHub, HubEvent, LocalStreamHub } from './stream-hub.js';

/** The EventHub of one process: faults, then fan-out to this process's streams. */
export class LocalEventDelivery implements EventHub {
  /**
   * @param decidesLeaks true in a single process; under `--workers` the primary decides the
   * `leak` fault once per event and asks one worker to write the copy (see `leak`).
   */
  constructor(
    private readonly hub: LocalStreamHub,
    private readonly faults: FaultSettings,
    private readonly delays: DelayScheduler,
    private readonly decidesLeaks = true,
    readonly replay = new ReplayLog(),
  ) {}

  /**
   * Without the latency fault the frames are written synchronously, before the caller sends
   * its HTTP answer; with it, the whole fan-out waits `latencyMs` once.
   */
  publish(event: HubEvent): void {
    // Ids are given in publish order, before any delay: every process gives the same ones.
    const nowMs = performance.now();
    const chatFrame = this.replay.append(sessionKey(event.sessionId), event.frame, nowMs);
    const mainFrame = event.toMainStreams ? this.replay.append(participantKey(event.participantId), event.frame, nowMs) : null;
    this.delays.run(this.faults.latencyMs, () => this.fanOut(event, chatFrame, mainFrame));
  }

  /** True when this process holds an open chat stream of a session other than `sessionId`. */
  canLeak(sessionId: string): boolean {
    return this.hub.otherSessionStream(sessionId) !== undefined;
  }

  /**
   * Writes `event`'s frame to one open chat stream of another session (after `latency`), without
   * an `id:` line: the receiving stream's last event id, and its resume, stay its own (docs/design.md §4.12).
   */
  leak(event: Pick<HubEvent, 'sessionId' | 'frame'>): void {
    this.delays.run(this.faults.latencyMs, () => this.hub.otherSessionStream(event.sessionId)?.writeEvent(Buffer.from(event.frame)));
  }

  /** `chatFrame` and `mainFrame` are encoded once for every stream they go to, each with its stream's id. */
  private fanOut(event: HubEvent, chatFrame: Buffer, mainFrame: Buffer | null): void {
    const chatStreams = this.hub.sessionStreams(event.sessionId);
    if (chatStreams) for (const stream of chatStreams) stream.writeEvent(chatFrame);
    if (mainFrame) {
      const mainStreams = this.hub.mainStreams(event.participantId);
      if (mainStreams) for (const stream of mainStreams) stream.writeEvent(mainFrame);
    }
    if (this.decidesLeaks && chance(this.faults.leak)) this.hub.otherSessionStream(event.sessionId)?.writeEvent(Buffer.from(event.frame));
  }
}
