/**
 * Event ids and resume (docs/design.md §4.12): every event of a chat session gets the next id
 * of that session, every event a participant's main stream gets the next id of that
 * participant, and the last few are kept so that a client reconnecting with `Last-Event-ID`
 * gets what it missed before anything live (the WHATWG EventSource reconnection model).
 * Every process of a `--workers` target applies the same events in the same order, so ids
 * agree wherever a reconnect lands. KEEP_ALIVEs carry no id: they are not worth replaying.
 */

interface Entry {
  seq: number;
  atMs: number;
  frame: Buffer;
}

interface Log {
  last: number;
  entries: Entry[];
}

/** Kept per stream key: enough to cover a reconnect of a few seconds, bounded for thousands of keys. */
export const REPLAY_EVENTS = 32;
export const REPLAY_MAX_AGE_MS = 60_000;

export class ReplayLog {
  private readonly logs = new Map<string, Log>();

  constructor(
    private readonly maxEvents = REPLAY_EVENTS,
    private readonly maxAgeMs = REPLAY_MAX_AGE_MS,
  ) {}

  /** The next id of `key` for the rendered `data: ...\n\n` frame; returns the frame with its `id:` line. */
  append(key: string, dataFrame: string, nowMs: number): Buffer {
    let log = this.logs.get(key);
    if (!log) {
      log = { last: 0, entries: [] };
      this.logs.set(key, log);
    }
    const seq = ++log.last;
    const frame = Buffer.from(`id: ${seq}\n${dataFrame}`);
    log.entries.push({ seq, atMs: nowMs, frame });
    while (log.entries.length > this.maxEvents || (log.entries[0] !== undefined && nowMs - log.entries[0].atMs > this.maxAgeMs)) log.entries.shift();
    return frame;
  }

  /** The kept frames of `key` after `lastId`, oldest first (a gap when the client was away longer than kept). */
  after(key: string, lastId: number, nowMs: number): Buffer[] {
    const log = this.logs.get(key);
    if (!log) return [];
    return log.entries.filter((entry) => entry.seq > lastId && nowMs - entry.atMs <= this.maxAgeMs).map((entry) => entry.frame);
  }
}

export const sessionKey = (sessionId: string): string => `s:${sessionId}`;
export const participantKey = (participantId: string): string => `p:${participantId}`;
