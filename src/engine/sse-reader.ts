/**
 * One SSE connection of a virtual participant: an undici Client of its own (a Pool or Agent
 * scans all its connections on every dispatch, which is quadratic over thousands of held
 * streams), `dispatch()` with the stream itself as the handler (not `request()`, whose
 * Readable body, handler and kept raw headers every held stream would carry for its whole
 * life, nor fetch, which costs several times as much per stream), a TextDecoder in streaming
 * mode and an eventsource-parser. State is plain numbers; the only per-stream closures are
 * the parser's. A stream object lives for one connection: a reopen creates a new one, so
 * object identity is a connection lifetime (the delivery tracker relies on it).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import { TextDecoder } from 'node:util';
import { createParser, type EventSourceParser } from 'eventsource-parser';
import type { Dispatcher } from 'undici';
import { type FailureCode, failureOfError, gatewayPage, unexpectedStatus } from '../contract/failure-codes.js';
import { printable } from '../util/printable.js';
import { createStreamClient, type ProtocolListener } from './http-agent.js';
import { keptEventId, lastEventIdHeader } from './last-event-id.js';
import { openLineBytesAfter } from './sse-line-bound.js';
import { defaultTransport, type Transport, withTraceparent, withTransportHeaders } from './transport.js';

/** The most of a gateway page's words kept. */
const GATEWAY_PAGE_CHARS = 120;

export enum StreamState {
  Connecting = 0,
  Open = 1,
  Closed = 2,
}

/** Which of a participant's two streams this is: its chat-session stream or its main stream. */
/** Every stream role, main first (a participant opens its main stream first). */
export const STREAM_ROLES = ['main', 'chat'] as const;
export type StreamRole = (typeof STREAM_ROLES)[number];

/** What a stream reports to its owner. Implemented once per run, not per stream. */
export interface StreamHost {
  onOpen(stream: SseStream, openLatencyMs: number): void;
  /**
   * `failure`: `status:<nnn>`, `proxy:<nnn>`, `content-type`, `net:<errno>` or `timeout:<phase>`
   * (docs/failure-codes.md). `gatewayPage`: the words of a gateway's own 502/504 page
   * (`text/html, Server: nginx/1.22.1`) when one answered instead of the API; null or absent otherwise.
   */
  onOpenFailed(stream: SseStream, failure: FailureCode, detail: string, gatewayPage?: string | null): void;
  /** `id`: the event's `id:` field, when it had one (the stream's lastEventId is updated before the call). */
  onData(stream: SseStream, data: string, nowMs: number, id: string | undefined): void;
  /** The target ended the stream, or sent a frame beyond the bound (we did not close it). */
  onDropped(stream: SseStream, failure: FailureCode, detail: string): void;
}

export interface StreamRequest {
  origin: string;
  path: string;
  headers: Record<string, string>;
  headersTimeoutMs: number;
  /** Source address for the socket (see source-addresses.ts), or null for the kernel's choice. */
  localAddress: string | null;
  /**
   * Longest SSE line, and longest event assembled from lines, the stream will buffer
   * (docs/design.md §6); beyond it the stream is dropped as `frame-too-large`.
   */
  maxFrameBytes: number;
  /** TLS, extra headers and proxy of the run (engine/transport.ts); plain defaults when absent. */
  transport?: Transport;
  /**
   * The last event id to resume from (a reconnect that asks the target to resume), or null.
   * Sent as `Last-Event-ID` in its header form (last-event-id.ts); an empty id, or one no
   * header can carry, is not sent and the open is no resume.
   */
  lastEventId?: string | null;
  /**
   * The participant's own connection (HTTP/2: one per participant, http-agent.ts), shared with
   * its other stream and outliving this one; absent: a connection of this stream's own.
   */
  dispatcher?: Dispatcher;
  /** Told the protocol of a connection this stream opens itself. */
  onProtocol?: ProtocolListener;
}

let nextStreamId = 1;

/** The Last-Event-ID value that resumes after `id`, or null when there is none to send. */
function resumeHeader(id: string | null): string | null {
  if (id === null || id === '') return null;
  const header = lastEventIdHeader(id);
  return header.ok ? header.value : null;
}

/** Passed to every destroy: undici would otherwise build (and stack-trace) one error per stream. */
const CLOSED_BY_DRIVER = new Error('stream closed by coachbench');

/**
 * Runs `close` with V8's stack traces off. Aborting a request still makes undici build its own
 * errors (a RequestAbortedError for the request, an InformationalError for its socket), and
 * Node's streams format the stack of every error they are destroyed with (`checkError` in
 * lib/internal/streams/destroy.js reads `err.stack`): most of the CPU of closing a stream
 * (docs/benchmarks.md, "Figures behind the code"), for errors that reach nothing but the no-op 'error' listener below. The
 * limit is restored before anything else runs.
 */
function withoutStackTraces(close: () => void): void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    close();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** One origin URL per origin string, shared by the Clients of every stream to it (undici keeps the URL it is given). */
const origins = new Map<string, URL>();
const originUrl = (origin: string): URL => {
  const known = origins.get(origin);
  if (known !== undefined) return known;
  const url = new URL(origin);
  origins.set(origin, url);
  return url;
};

type Controller = Dispatcher.DispatchController;

export class SseStream implements Dispatcher.DispatchHandler {
  readonly id = nextStreamId++;
  state = StreamState.Connecting;
  requestAtMs = 0;
  openedAtMs = NaN;
  lastFrameAtMs = NaN;
  lastKeepAliveAtMs = NaN;
  worstGapMs = 0;
  keepAlives = 0;
  /** A body byte arrived after the headers: a stall without one is a buffering intermediary's mark (docs/design.md §6). */
  sawBody = false;
  /**
   * The WHATWG last event ID: the latest `id:` seen on this connection (kept across events
   * without one), or null; an id past MAX_EVENT_ID_BYTES is kept only as far as shows it too long.
   */
  lastEventId: string | null = null;
  /** The reconnection time the target asked for with `retry:`, or null. */
  retryMs: number | null = null;
  /** The `Last-Event-ID` header value this connection was opened with, or null (not a resume). */
  resumedFrom: string | null = null;
  /** The response headers arrived (the stream opened, or its answer was refused). */
  private answered = false;
  /** Aborts this stream's request: on a shared connection the request alone, on its own the connection too. */
  private controller: Controller | null = null;
  private client: Dispatcher | null = null;
  private closeWhenOpen = false;
  private host: StreamHost | null = null;
  private maxFrameBytes = 0;
  /** Bytes of the SSE line still open after the last chunk (sse-line-bound.ts). */
  private openLineBytes = 0;
  private decoder: TextDecoder | null = null;
  private parser: EventSourceParser | null = null;
  /** Settles open()'s promise once the stream is open or has failed. */
  private settleOpen: (() => void) | null = null;

  constructor(
    readonly role: StreamRole,
    /** Index of the owning participant in the run's participant list. */
    readonly participant: number,
    /** Chat session id for a chat stream, null for the main stream. */
    readonly sessionId: string | null,
  ) {}

  /** Starts the request; resolves once the stream is open or has failed (never rejects). */
  open(request: StreamRequest, host: StreamHost): Promise<void> {
    this.requestAtMs = performance.now();
    this.resumedFrom = resumeHeader(request.lastEventId ?? null);
    this.host = host;
    this.maxFrameBytes = request.maxFrameBytes;
    let dispatcher = request.dispatcher;
    // A connection of the stream's own adds no headers (http-agent.ts): the request carries the transport's.
    // Each open (a reconnect too) is a request of its own, with its own traceparent (docs/design.md §2.12).
    const transport = request.transport ?? defaultTransport();
    const base = dispatcher === undefined ? withTraceparent(withTransportHeaders(request.headers, transport.headers), transport).headers : request.headers;
    const headers = this.resumedFrom === null ? base : { ...base, 'last-event-id': this.resumedFrom };
    if (dispatcher === undefined) {
      // One connection per stream lifetime: no pipelining, no keep-alive reuse after the stream.
      dispatcher = createStreamClient(originUrl(request.origin), {
        headersTimeoutMs: request.headersTimeoutMs,
        localAddress: request.localAddress,
        ...(request.transport ? { transport: request.transport } : {}),
        ...(request.onProtocol ? { onProtocol: request.onProtocol } : {}),
      });
      this.client = dispatcher;
    }
    const opened = new Promise<void>((resolve) => {
      this.settleOpen = resolve;
    });
    dispatcher.dispatch({ origin: request.origin, path: request.path, method: 'GET', headers, headersTimeout: request.headersTimeoutMs, bodyTimeout: 0 }, this);
    return opened;
  }

  /** undici: the request is on a connection. A close that came before is carried out now. */
  onRequestStart(controller: Controller): void {
    this.controller = controller;
    if (this.closeWhenOpen) withoutStackTraces(() => controller.abort(CLOSED_BY_DRIVER));
  }

  /** undici: the response headers. Only a 200 `text/event-stream` opens the stream. */
  onResponseStart(controller: Controller, statusCode: number, headers: IncomingHttpHeaders): void {
    // Informational answers (1xx) precede the answer itself.
    if (statusCode < 200 || this.state !== StreamState.Connecting) return;
    // undici keeps the raw header buffers on the controller for the response's life, which for a stream is the run's.
    controller.rawHeaders = null;
    this.answered = true;
    const nowMs = performance.now();
    const contentType = String(headers['content-type'] ?? '');
    if (statusCode !== 200 || !contentType.startsWith('text/event-stream')) {
      this.markClosed();
      this.opened();
      if (this.closeWhenOpen) return;
      const failure = statusCode !== 200 ? unexpectedStatus(statusCode, headers) : 'content-type';
      // The target's status, but the words of a gateway in front of the API (docs/design.md §2.12).
      const page = failure.startsWith('status:') ? gatewayPage(statusCode, headers) : null;
      const gateway = page === null ? null : printable(page, GATEWAY_PAGE_CHARS);
      const detail = gateway === null ? `HTTP ${statusCode} ${contentType || 'no content-type'}` : `HTTP ${statusCode}, a gateway's own page (${gateway})`;
      this.host?.onOpenFailed(this, failure, detail, gateway);
      return;
    }
    if (this.closeWhenOpen) {
      this.opened();
      this.close();
      return;
    }
    this.state = StreamState.Open;
    this.openedAtMs = nowMs;
    this.lastFrameAtMs = nowMs;
    this.decoder = new TextDecoder('utf-8');
    this.parser = this.createParser();
    this.opened();
    this.host?.onOpen(this, nowMs - this.requestAtMs);
  }

  /** undici: a body chunk, read at once (never paused). */
  onResponseData(_controller: Controller, chunk: Buffer): void {
    if (this.state !== StreamState.Open) return;
    this.sawBody = true;
    this.openLineBytes = openLineBytesAfter(chunk, this.openLineBytes, this.maxFrameBytes);
    if (this.openLineBytes < 0) {
      this.frameTooLarge(`a line grew beyond ${this.maxFrameBytes} bytes`);
      return;
    }
    this.parser!.feed(this.decoder!.decode(chunk, { stream: true }));
  }

  /** undici: the target ended the stream. */
  onResponseEnd(): void {
    this.dropped('end', 'the target ended the stream');
  }

  /** undici: the request failed before its headers (a failed open), or the body after them (a drop); our own close lands here too. */
  onResponseError(_controller: Controller | undefined, error: Error): void {
    if (this.state === StreamState.Open) {
      const failure = failureOfError(error);
      this.dropped(failure, `${failure}: ${error.message}`);
      return;
    }
    this.opened();
    if (this.state === StreamState.Closed || this.answered) return;
    this.markClosed();
    if (this.closeWhenOpen) return;
    const failure = failureOfError(error);
    this.host?.onOpenFailed(this, failure, `${failure}: ${error.message}`);
  }

  private opened(): void {
    const settle = this.settleOpen;
    this.settleOpen = null;
    settle?.();
  }

  private createParser(): EventSourceParser {
    const maxFrameBytes = this.maxFrameBytes;
    return createParser({
      // Our byte count bounds one line; the parser's own bound (in decoded characters, never
      // more than the bytes) bounds an event assembled from many short `data:` lines.
      maxBufferSize: maxFrameBytes,
      onEvent: (event) => {
        if (this.state !== StreamState.Open) return;
        const nowMs = performance.now();
        this.lastFrameAtMs = nowMs;
        if (event.id !== undefined && event.id !== this.lastEventId) this.lastEventId = keptEventId(event.id);
        this.host!.onData(this, event.data, nowMs, event.id);
      },
      onRetry: (retryMs) => {
        this.retryMs = retryMs;
      },
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') this.frameTooLarge(`an event grew beyond ${maxFrameBytes} bytes`);
      },
    });
  }

  /** Fails the stream before the parser holds more than the bound, and lets go of what it holds. */
  private frameTooLarge(detail: string): void {
    this.parser?.reset();
    this.dropped('frame-too-large', detail);
  }

  private dropped(failure: FailureCode, detail: string): void {
    if (this.state !== StreamState.Open) return;
    this.markClosed();
    this.host?.onDropped(this, failure, detail);
  }

  /** Still waiting for the response headers (not yet open, closed or given up on). */
  get opening(): boolean {
    return this.state === StreamState.Connecting && !this.answered && !this.closeWhenOpen;
  }

  /**
   * Gives up on an open still waiting for its response headers: the request is cancelled and
   * the host told at once, as a failed open (docs/design.md §6). undici's headersTimeout
   * starts only once the request is written to a connection, so it never covers the wait for
   * a connection or a proxy's CONNECT answer; the driver bounds the whole open with this.
   */
  abandonOpen(host: StreamHost, failure: FailureCode, detail: string): void {
    if (!this.opening) return;
    this.close();
    host.onOpenFailed(this, failure, detail);
  }

  /** Closes from our side (switch, stall, end of run). Safe in any state. */
  close(): void {
    if (this.state === StreamState.Connecting && !this.answered) {
      // Still waiting for headers: destroying the client (or aborting the request on a shared
      // connection; one not yet started there is aborted when it starts) fails the request,
      // whose handler closes.
      this.closeWhenOpen = true;
      withoutStackTraces(() => {
        this.client?.destroy(CLOSED_BY_DRIVER).catch(() => undefined);
        this.controller?.abort(CLOSED_BY_DRIVER);
      });
      return;
    }
    this.markClosed();
  }

  private markClosed(): void {
    withoutStackTraces(() => this.release());
  }

  private release(): void {
    this.state = StreamState.Closed;
    // On a shared connection this resets this stream alone; on its own, the connection goes below.
    this.controller?.abort(CLOSED_BY_DRIVER);
    this.controller = null;
    if (this.client) {
      const client = this.client;
      this.client = null;
      client.destroy(CLOSED_BY_DRIVER).catch(() => undefined);
    }
    this.decoder = null;
    this.parser = null;
  }
}
