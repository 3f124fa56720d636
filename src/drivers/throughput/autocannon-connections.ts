/**
 * The closed model's connections: autocannon 9's HTTP/1.1 connection class, driven directly.
 *
 * autocannon's runner (the package's main export) wraps these connections in what a run here
 * never reads: three WebAssembly histograms recorded on every answer, per-second samples, a
 * progress bar and result tables. Loading it cost a sizeable share of the fixed-CPU budget
 * (docs/benchmarks.md, "Figures behind the code"). What the runner does that matters
 * is here: `connections` connections to one origin, each sending its next request when the
 * previous answer is in and reconnecting on its own after an error, a timeout or an answer
 * whose body passed the bound (autocannon-body-bound.ts), all destroyed at a deadline
 * (exactly then, not at the runner's next 100 ms sample) or on abort. Plain-TCP connections
 * read into one shared Buffer (autocannon-reads.ts), and each answer reaches `onAnswer` with
 * the body and header lines the connection parsed.
 */
import { performance } from 'node:perf_hooks';
import { createSecureContext } from 'node:tls';
import { urlToHttpOptions } from 'node:url';
import AutocannonClient, { type ClientOptions, type ConnectionClient } from 'autocannon/lib/httpClient.js';
import { boundResponseBodies } from './autocannon-body-bound.js';
import { readIntoSharedBuffer } from './autocannon-reads.js';

export interface ConnectionSettings {
  /** scheme://host[:port] of the target. */
  origin: string;
  connections: number;
  /** A connection with no answer for this long is closed, counted and reconnected. */
  timeoutMs: number;
  /** Most bytes of one answer's body a connection reads; past it the connection is closed, counted and reconnected. */
  maxBodyBytes: number;
  /** autocannon's request list (hooks included): what each connection sends unless setupClient replaces it. */
  requests: ClientOptions['requests'];
  /** Called with each connection before its first request is written. */
  setupClient: (client: ConnectionClient) => void;
  tlsOptions?: ClientOptions['tlsOptions'];
  servername?: string;
}

/** What a connection read of one answer: its body (read to the bound) and its header lines as received. */
export interface ConnectionAnswer {
  body: string;
  /** Names and values in turn, as they came (http-parser-js's list). */
  rawHeaders: readonly string[];
}

export interface ConnectionEvents {
  /** A whole answer: autocannon's hrtime from write to last byte, fractional ms. `answer` is only valid during the call. */
  onAnswer(client: ConnectionClient, status: number, latencyMs: number, answer: ConnectionAnswer): void;
  /** A connection failed (refused, reset, TLS): it reconnects at once. */
  onConnectionError(error: Error): void;
  /** No answer within the timeout: the connection was closed and is reconnecting. */
  onTimeout(timeoutMs: number): void;
  /** An answer's body grew past `maxBodyBytes`: the connection was closed and is reconnecting. */
  onBodyTooLarge(client: ConnectionClient, maxBodyBytes: number): void;
}

/** The members of autocannon 9's per-connection queue of requests in flight (pipelinedRequestsQueue.js) read here. */
interface PendingAnswers {
  /** Takes the oldest request off the queue with its answer; called once per answer, right before `response` is emitted. */
  terminateRequest(): { body: string; headers: { headers?: string[] } } | undefined;
}

const NO_HEADERS: readonly string[] = [];

/**
 * A view of the answer `client` read last, filled as autocannon takes it off its queue (just
 * before it emits `response`): the body and header lines autocannon already holds, so an answer
 * is not also handed through its `onResponse` hook, which builds a map with an array per header.
 */
function lastAnswerOf(client: ConnectionClient): ConnectionAnswer {
  const answer = { body: '', rawHeaders: NO_HEADERS };
  const queue = (client as unknown as { pipelinedRequests: PendingAnswers }).pipelinedRequests;
  const terminate = queue.terminateRequest;
  queue.terminateRequest = function keepAnswer(this: PendingAnswers) {
    const taken = terminate.call(this);
    answer.body = taken?.body ?? '';
    answer.rawHeaders = taken?.headers.headers ?? NO_HEADERS;
    return taken;
  };
  return answer;
}

/** Runs the connections until `endMs` (performance.now() time) or `signal` aborts; resolves once all are destroyed. */
export function runConnections(settings: ConnectionSettings, events: ConnectionEvents, endMs: number, signal: AbortSignal): Promise<void> {
  const url = new URL(settings.origin);
  const options: ClientOptions = {
    ...urlToHttpOptions(url),
    host: url.host,
    pipelining: 1,
    requests: settings.requests,
    // Over plain TCP every connection reads into one shared Buffer (autocannon-reads.ts).
    setupClient:
      url.protocol === 'http:'
        ? (client) => {
            readIntoSharedBuffer(client);
            settings.setupClient(client);
          }
        : settings.setupClient,
    timeout: settings.timeoutMs / 1_000,
    ...(settings.tlsOptions ? { tlsOptions: settings.tlsOptions } : {}),
    ...(settings.servername ? { servername: settings.servername } : {}),
  };
  const clients: ConnectionClient[] = [];
  return new Promise<void>((resolve, reject) => {
    const destroyAll = (): void => {
      clearTimeout(deadline);
      signal.removeEventListener('abort', stop);
      for (const client of clients) client.destroy();
    };
    const stop = (): void => {
      destroyAll();
      resolve();
    };
    const deadline = setTimeout(stop, Math.max(0, endMs - performance.now()));
    signal.addEventListener('abort', stop, { once: true });
    try {
      // TLS options Node refuses would throw inside a connection's constructor, after it set
      // its timer: refuse them here, before any connection exists.
      if (settings.tlsOptions) createSecureContext(settings.tlsOptions);
      for (let i = 0; i < settings.connections; i++) {
        const client = new AutocannonClient(options);
        boundResponseBodies(
          client,
          settings.maxBodyBytes,
          () => events.onBodyTooLarge(client, settings.maxBodyBytes),
          (error) => events.onConnectionError(error),
        );
        const answer = lastAnswerOf(client);
        client.on('response', (status: number, _bytes: number, latencyMs: number) => events.onAnswer(client, status, latencyMs, answer));
        client.on('connError', (error: Error) => events.onConnectionError(error));
        client.on('timeout', () => events.onTimeout(settings.timeoutMs));
        clients.push(client);
      }
    } catch (error) {
      destroyAll();
      reject(error);
    }
  });
}
