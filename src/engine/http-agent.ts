/**
 * The one place undici dispatchers are built, so every driver, test and benchmark talks to
 * a target through the same connection settings.
 *
 * Requests (messages, uploads, tags, probes) share one Agent per process. Each held SSE
 * stream gets a Client of its own: an Agent or Pool scans all its connections on every
 * dispatch, which is quadratic over thousands of long-lived streams.
 */
import { Agent, Client } from 'undici';

/** Most sockets the request Agent opens per origin: streams need the file descriptors. */
export const REQUEST_CONNECTIONS = 512;

const CONNECT_TIMEOUT_MS = 10_000;
const KEEP_ALIVE_TIMEOUT_MS = 10_000;

/** The request Agent of one process. */
export function createRequestAgent(connections = REQUEST_CONNECTIONS): Agent {
  return new Agent({ pipelining: 1, connections, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS, connect: { timeout: CONNECT_TIMEOUT_MS } });
}

export interface StreamClientOptions {
  /** Bounds connect and response headers; the body of a stream never times out. */
  headersTimeoutMs: number;
  /** Source address to bind (spreads loopback streams over 127.0.0.0/8 past the port limit). */
  localAddress?: string | null | undefined;
}

/** A Client for one stream's lifetime: no pipelining, no reuse after the stream ends. */
export function createStreamClient(origin: string, options: StreamClientOptions): Client {
  return new Client(origin, {
    pipelining: 1,
    bodyTimeout: 0,
    headersTimeout: options.headersTimeoutMs,
    connectTimeout: options.headersTimeoutMs,
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
  });
}
