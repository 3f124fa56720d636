/**
 * How the closed model hands autocannon one request at a time without copying the body.
 *
 * autocannon's documented per-request hook (`requests[].setupRequest`) makes its request
 * builder concatenate head and body into a new Buffer for every request: a full copy of each
 * upload, which costs more than the rest of autocannon's work per request for large photos
 * (docs/benchmarks.md). So, when the installed autocannon has the method this relies on, each
 * connection's `getRequestBuffer` (what the connection writes next) is replaced through the
 * documented `setupClient` hook: it writes our head and returns the shared body Buffer, all
 * corked into one writev. Otherwise the documented `setupRequest` path is used.
 *
 * Per request, only what changes is built: the head's lines up to the request's own headers
 * are made once per frozen headers object (a workload's, shared until a token renewal), and
 * each request adds its traceparent and Content-Length as one short string.
 */
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import AutocannonClient from 'autocannon/lib/httpClient.js';
import type { HttpRequestSpec } from './http-exchange.js';

/** The members of autocannon 9's Client that the shared-body path relies on. */
interface ClientInternals {
  getRequestBuffer(): Buffer;
  /** Writes the next request (through getRequestBuffer) and restarts the timeout. */
  _doRequest(): void;
  /** The connection's socket (replaced on reconnect, always set before a request is written). */
  conn: Pick<Socket, 'cork' | 'uncork' | 'write'>;
  /** Picks the request `_doRequest` writes next from the `requests` list, cloning the list's context each time it wraps. */
  requestIterator: { nextRequest(): unknown; currentRequest: unknown };
}

/** True when this autocannon writes each request through `Client.prototype.getRequestBuffer`. */
export function sharedBodiesSupported(): boolean {
  return typeof AutocannonClient.prototype.getRequestBuffer === 'function';
}

/** What the shared-body path writes next: a request, and the traceparent value to add to it (null: none). */
export interface OutgoingRequest {
  spec: HttpRequestSpec;
  traceparent: string | null;
}

/**
 * The request line and headers of `spec`, without its Content-Length and traceparent and the
 * blank line: `extra` (the run's --header and User-Agent) where the request has no header of
 * that name, and not extra's traceparent when the request gets one of its own (`traced`).
 */
export function headPrefix(spec: HttpRequestSpec, host: string, extra: Readonly<Record<string, string>>, traced: boolean): Buffer {
  let head = `${spec.method} ${spec.path} HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive\r\n`;
  for (const name of Object.keys(spec.headers)) head += `${name}: ${spec.headers[name]}\r\n`;
  for (const name of Object.keys(extra)) {
    if (!(name in spec.headers) && !(traced && name === 'traceparent')) head += `${name}: ${extra[name]}\r\n`;
  }
  return Buffer.from(head, 'latin1');
}

/** The head's last lines: the request's traceparent (when it gets one), its Content-Length, and the blank line. */
export const headEnd = (traceparent: string | null, bodyBytes: number): string =>
  traceparent === null ? `Content-Length: ${bodyBytes}\r\n\r\n` : `traceparent: ${traceparent}\r\nContent-Length: ${bodyBytes}\r\n\r\n`;

/** A head prefix and what it was made for. */
interface MadePrefix {
  method: string;
  path: string;
  traced: boolean;
  prefix: Buffer;
}

/**
 * The head prefixes of one run's requests. A frozen headers object cannot change, so its
 * prefix is made once (and made again only if the same object is sent with another method or
 * path); any other request's is made each time, as before.
 */
export class RequestHeads {
  private readonly made = new WeakMap<object, MadePrefix>();

  constructor(
    private readonly host: string,
    private readonly extra: Readonly<Record<string, string>> = {},
  ) {}

  prefix(spec: HttpRequestSpec, traced: boolean): Buffer {
    if (!Object.isFrozen(spec.headers)) return headPrefix(spec, this.host, this.extra, traced);
    const kept = this.made.get(spec.headers);
    if (kept !== undefined && kept.method === spec.method && kept.path === spec.path && kept.traced === traced) return kept.prefix;
    const prefix = headPrefix(spec, this.host, this.extra, traced);
    this.made.set(spec.headers, { method: spec.method, path: spec.path, traced, prefix });
    return prefix;
  }
}

/** Every request is getRequestBuffer's: autocannon's list (and the context it clones per request) is never read. */
function keepCurrent(this: ClientInternals['requestIterator']): unknown {
  return this.currentRequest;
}

/**
 * Makes `client` send `next()`'s request each time it writes one: the head prefix and its end
 * are written to the corked socket, the shared body Buffer is returned for autocannon to
 * write, and the socket is uncorked once autocannon has, so all leave in one writev and the
 * body is never copied. `next` may return the same object each time (read before it is called again).
 */
export function sendSharedBodies(client: object, heads: RequestHeads, next: () => OutgoingRequest): void {
  const internals = client as ClientInternals;
  internals.requestIterator.nextRequest = keepCurrent;
  internals.getRequestBuffer = function getRequestBuffer(this: ClientInternals): Buffer {
    const { spec, traceparent } = next();
    const body = typeof spec.body === 'string' ? Buffer.from(spec.body, 'utf8') : spec.body;
    this.conn.write(heads.prefix(spec, traceparent !== null));
    this.conn.write(headEnd(traceparent, body.length), 'latin1');
    return body;
  };
  const doRequest = internals._doRequest;
  internals._doRequest = function corkedRequest(this: ClientInternals): void {
    const conn = this.conn;
    conn.cork();
    doRequest.call(this);
    conn.uncork();
  };
}

/** The autocannon 9 Client members certificate checking relies on. */
interface ConnectingClient {
  _connect(): void;
  conn: Socket;
}

/** Fails a TLS connection whose certificate did not verify, with the verification error (e.g. DEPTH_ZERO_SELF_SIGNED_CERT). */
function requireAuthorized(conn: Socket): void {
  if (!(conn instanceof TLSSocket)) return;
  conn.once('secureConnect', () => {
    if (!conn.authorized) conn.destroy(conn.authorizationError ?? new Error('certificate not authorized'));
  });
}

/**
 * autocannon 9 connects with `rejectUnauthorized: false` whatever its tlsOptions say, so a
 * closed-model run would accept any certificate. This checks every connection of `client`
 * (the first, already under way, and each reconnect) the way Node would have: a certificate
 * that does not verify against the run's trust (--ca, system roots) ends the connection with
 * the verification error, counted like any connection error. Not used with --insecure.
 */
export function verifyCertificates(client: object): void {
  const internals = client as ConnectingClient;
  requireAuthorized(internals.conn);
  const connect = internals._connect;
  internals._connect = function reconnect(this: ConnectingClient): void {
    connect.call(this);
    requireAuthorized(this.conn);
  };
}
