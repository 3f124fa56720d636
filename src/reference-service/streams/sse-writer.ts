/**
 * One open SSE stream (chat-session or main). It writes `data: <json>\n\n` frames and applies
 * the per-frame faults (`duplicate`, `bad-json`); per-stream faults are decided by the
 * StreamRegistry when it opens the stream.
 */
import type { ServerResponse } from 'node:http';
import { chance, type FaultSettings } from '../faults/faults.js';
import type { KeepAliveClient, WheelEntry } from './keepalive-wheel.js';

/** A chat-session stream or the main participant stream. */
export type StreamKind = 'chat' | 'main';

/** The frame every stream gets every keep-alive interval. */
export const KEEP_ALIVE_FRAME = 'data: {"eventType":"KEEP_ALIVE","payload":null}\n\n';

/** The `bad-json` fault's extra frame: a truncated MESSAGE_SENT object. */
export const BAD_JSON_FRAME = 'data: {"eventType":"MESSAGE_SENT","payload":[\n\n';

// Encoded once: every stream writes the same bytes, so no per-write string conversion.
const KEEP_ALIVE_BYTES = Buffer.from(KEEP_ALIVE_FRAME);
const BAD_JSON_BYTES = Buffer.from(BAD_JSON_FRAME);

// A client that stops reading must not grow the target's memory without bound.
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** Counters a stream bumps as it writes (shared by every stream of one target). */
export interface StreamCounters {
  eventsSent: number;
  keepAlivesSent: number;
}

/** Renders one event as its SSE frame. */
export function eventFrame(eventType: string, payload: unknown): string {
  return `data: ${JSON.stringify({ eventType, payload })}\n\n`;
}

/** One open stream; the registry owns its lifecycle. */
export class SseStream implements KeepAliveClient {
  /** Set while the stream sits in the keep-alive wheel (null for stalled streams). */
  wheelEntry: WheelEntry | null = null;
  /** The `drop` fault's pending socket destruction, if this stream was chosen. */
  dropTimer: NodeJS.Timeout | null = null;
  /** True when the `stall` fault chose this stream: it never writes a frame. */
  stalled = false;
  closed = false;

  constructor(
    readonly res: ServerResponse,
    readonly kind: StreamKind,
    /** The chat session (chat streams) or null (main stream). */
    readonly sessionId: string | null,
    readonly participantId: string,
    private readonly faults: FaultSettings,
    private readonly counters: StreamCounters,
  ) {}

  onKeepAlive(): void {
    if (this.write(KEEP_ALIVE_BYTES)) this.counters.keepAlivesSent += 1;
  }

  /** Writes an already-rendered event frame, twice when the `duplicate` fault picks it. */
  writeEvent(frame: Buffer): void {
    if (this.write(frame)) this.counters.eventsSent += 1;
    if (chance(this.faults.duplicate) && this.write(frame)) this.counters.eventsSent += 1;
  }

  private write(frame: Buffer): boolean {
    if (this.closed || this.stalled || this.res.destroyed) return false;
    this.res.write(frame);
    if (chance(this.faults.badJson)) this.res.write(BAD_JSON_BYTES);
    if (this.res.writableLength > MAX_BUFFERED_BYTES) this.res.destroy();
    return true;
  }
}
