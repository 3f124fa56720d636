/**
 * The in-process EventHub: applies the `latency` and `leak` faults, then writes each event to
 * the session's chat streams (and the participant's main streams when asked).
 */
import { chance, type FaultSettings } from '../faults/faults.js';
import type { DelayScheduler } from '../faults/precise-delay.js';
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
  ) {}

  /**
   * Without the latency fault the frames are written synchronously, before the caller sends
   * its HTTP answer; with it, the whole fan-out waits `latencyMs` once.
   */
  publish(event: HubEvent): void {
    this.delays.run(this.faults.latencyMs, () => this.fanOut(event));
  }

  /** True when this process holds an open chat stream of a session other than `sessionId`. */
  canLeak(sessionId: string): boolean {
    return this.hub.otherSessionStream(sessionId) !== undefined;
  }

  /** Writes `event`, unchanged, to one open chat stream of another session (after `latency`). */
  leak(event: Pick<HubEvent, 'sessionId' | 'frame'>): void {
    this.delays.run(this.faults.latencyMs, () => this.hub.otherSessionStream(event.sessionId)?.writeEvent(Buffer.from(event.frame)));
  }

  private fanOut(event: HubEvent): void {
    // Encoded once for every stream it goes to.
    const frame = Buffer.from(event.frame);
    const chatStreams = this.hub.sessionStreams(event.sessionId);
    if (chatStreams) for (const stream of chatStreams) stream.writeEvent(frame);
    if (event.toMainStreams) {
      const mainStreams = this.hub.mainStreams(event.participantId);
      if (mainStreams) for (const stream of mainStreams) stream.writeEvent(frame);
    }
    if (this.decidesLeaks && chance(this.faults.leak)) this.hub.otherSessionStream(event.sessionId)?.writeEvent(frame);
  }
}
