/**
 * Opens and closes SSE streams: flushes the headers at once, decides the per-stream faults
 * (stall, keepalive-drift, drop), registers the stream with the keep-alive wheel and the hub,
 * and frees all of it when the connection closes.
 */
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { chance, type FaultSettings } from '../faults/faults.js';
import { CORS_HEADERS } from '../http/http-reply.js';
import { cutResponse } from '../http/target-server.js';
import { KeepAliveWheel, WheelEntry } from './keepalive-wheel.js';
import type { LatenessHistogram, LatenessSummary } from './lateness-histogram.js';
import { participantKey, type ReplayLog, sessionKey } from './replay-log.js';
import { SseStream, type StreamCounters, type StreamKind } from './sse-writer.js';
import type { LocalStreamHub } from './stream-hub.js';

/** Without `X-Accel-Buffering: no` (`serve --no-accel-buffering-header`): what a target unaware of proxies sends. */
const PLAIN_STREAM_HEADERS: Readonly<Record<string, string>> = {
  ...CORS_HEADERS,
  'cache-control': 'no-cache',
  'content-type': 'text/event-stream',
};

const STREAM_HEADERS: Readonly<Record<string, string>> = {
  ...PLAIN_STREAM_HEADERS,
  // Reverse proxies (nginx) would otherwise buffer the frames.
  'x-accel-buffering': 'no',
};

/** keepalive-drift: affected streams use this multiple of the interval for every gap. */
export const DRIFT_FACTOR = 1.5;

/** Every open stream of the target and the resources each holds. */
export class StreamRegistry {
  private readonly open = new Set<SseStream>();
  private readonly wheel = new KeepAliveWheel();
  private drops = 0;
  private chat = 0;

  constructor(
    private readonly hub: LocalStreamHub,
    private readonly faults: FaultSettings,
    private readonly keepAliveMs: number,
    private readonly counters: StreamCounters,
    private readonly replay: ReplayLog,
    /** `retry:` sent first on every stream, or null. */
    private readonly retryMs: number | null = null,
    /** Send `X-Accel-Buffering: no`; false lets a test reproduce a buffering proxy (docs/target.md). */
    private readonly accelBufferingHeader = true,
  ) {}

  get openStreams(): number {
    return this.open.size;
  }

  /** KEEP_ALIVE timer accuracy so far (see LatenessHistogram). */
  keepAliveLateness(): LatenessSummary {
    return this.wheel.lateness.summary();
  }

  /** The histogram itself (a worker sends its buckets to the primary). */
  get lateness(): LatenessHistogram {
    return this.wheel.lateness;
  }

  resetKeepAliveLateness(): void {
    this.wheel.lateness.reset();
  }

  get openChatStreams(): number {
    return this.chat;
  }

  /** Close listeners + wheel entries + hub subscriptions + pending drop timers. */
  get handles(): number {
    return this.open.size + this.wheel.size + this.hub.size + this.drops;
  }

  /** Answers 200 with the stream headers (flushed now) and starts the stream's schedule. */
  openStream(res: ServerResponse, kind: StreamKind, sessionId: string | null, participantId: string, lastEventId: number | null = null): SseStream {
    const stream = new SseStream(res, kind, sessionId, participantId, this.faults, this.counters);
    res.writeHead(200, this.accelBufferingHeader ? STREAM_HEADERS : PLAIN_STREAM_HEADERS);
    if (this.retryMs !== null) res.write(`retry: ${this.retryMs}\n\n`);
    res.flushHeaders();
    const openedMs = performance.now();
    this.open.add(stream);
    if (kind === 'chat') this.chat += 1;
    res.once('close', () => this.release(stream));
    if (chance(this.faults.stall)) {
      // Silent but open: no keep-alive, no events, no drop.
      stream.stalled = true;
      return stream;
    }
    const gapMs = chance(this.faults.keepAliveDrift) ? this.keepAliveMs * DRIFT_FACTOR : this.keepAliveMs;
    stream.wheelEntry = new WheelEntry(stream, gapMs);
    this.wheel.add(stream.wheelEntry, openedMs + gapMs);
    this.hub.add(stream);
    if (lastEventId !== null) this.replayTo(stream, lastEventId, openedMs);
    if (chance(this.faults.drop)) {
      const afterMs = this.keepAliveMs * (0.5 + Math.random());
      this.drops += 1;
      stream.dropTimer = setTimeout(() => {
        stream.dropTimer = null;
        this.drops -= 1;
        cutResponse(res);
      }, afterMs);
    }
    return stream;
  }

  /** What a reconnecting client missed, before anything live (the `resume-gap` fault loses the first of it). */
  private replayTo(stream: SseStream, lastEventId: number, nowMs: number): void {
    const key = stream.sessionId !== null ? sessionKey(stream.sessionId) : participantKey(stream.participantId);
    const missed = this.replay.after(key, lastEventId, nowMs);
    if (missed.length > 0 && chance(this.faults.resumeGap)) missed.shift();
    for (const frame of missed) stream.writeEvent(frame);
  }

  /** Ends every stream (close()); their close listeners release the rest. */
  closeAll(): void {
    for (const stream of [...this.open]) {
      stream.res.end();
      this.release(stream);
    }
    this.wheel.reset();
    this.hub.clear();
  }

  private release(stream: SseStream): void {
    if (stream.closed) return;
    stream.closed = true;
    this.open.delete(stream);
    if (stream.kind === 'chat') this.chat -= 1;
    if (stream.wheelEntry) this.wheel.remove(stream.wheelEntry);
    stream.wheelEntry = null;
    this.hub.remove(stream);
    if (stream.dropTimer) {
      clearTimeout(stream.dropTimer);
      stream.dropTimer = null;
      this.drops -= 1;
    }
  }
}
