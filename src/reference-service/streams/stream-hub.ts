/**
 * Session and participant fan-out within one process. Under `serve --workers N` events do not
 * cross processes as frames: the commands that emit them are replayed by every worker, each
 * publishing to its own streams (see cluster/command-coordinator.ts).
 */
import type { SseStream } from './sse-writer.js';

/** One event to fan out: its rendered frame and where it goes. */
export interface HubEvent {
  sessionId: string;
  participantId: string;
  /** The rendered `data: ...\n\n` frame. */
  frame: string;
  /** Also deliver to the participant's main streams (MESSAGE_SENT as an unread message). */
  toMainStreams: boolean;
}

/** Publishes session events to every stream that should see them, wherever it lives. */
export interface EventHub {
  publish(event: HubEvent): void;
}

/** The streams of this process, indexed by chat session and by participant (main streams). */
export class LocalStreamHub {
  private readonly bySession = new Map<string, Set<SseStream>>();
  private readonly mainByParticipant = new Map<string, Set<SseStream>>();
  private subscriptions = 0;

  /** Streams subscribed right now (returns to 0 when all are closed). */
  get size(): number {
    return this.subscriptions;
  }

  add(stream: SseStream): void {
    const index = stream.sessionId === null ? this.mainByParticipant : this.bySession;
    const key = stream.sessionId ?? stream.participantId;
    let set = index.get(key);
    if (!set) {
      set = new Set();
      index.set(key, set);
    }
    if (!set.has(stream)) this.subscriptions += 1;
    set.add(stream);
  }

  remove(stream: SseStream): void {
    const index = stream.sessionId === null ? this.mainByParticipant : this.bySession;
    const key = stream.sessionId ?? stream.participantId;
    const set = index.get(key);
    if (!set || !set.delete(stream)) return;
    this.subscriptions -= 1;
    if (set.size === 0) index.delete(key);
  }

  sessionStreams(sessionId: string): ReadonlySet<SseStream> | undefined {
    return this.bySession.get(sessionId);
  }

  mainStreams(participantId: string): ReadonlySet<SseStream> | undefined {
    return this.mainByParticipant.get(participantId);
  }

  /** Some open chat stream of a session other than `sessionId` (the `leak` fault's victim). */
  otherSessionStream(sessionId: string): SseStream | undefined {
    for (const [key, set] of this.bySession) {
      if (key === sessionId) continue;
      for (const stream of set) return stream;
    }
    return undefined;
  }

  clear(): void {
    this.bySession.clear();
    this.mainByParticipant.clear();
    this.subscriptions = 0;
  }
}
