/**
 * How the closed model hands autocannon one request at a time without copying the body.
 *
 * autocannon's documented per-request hook (`requests[].setupRequest`) makes its request
 * builder concatenate head and body into a new Buffer for every request: a full copy of each
 * upload, which costs more than the rest of autocannon's work per request for large photos
 * (docs/benchmarks.md). So, when the installed autocannon has the method this relies on, each
 * connection's `getRequestBuffer` (what the connection writes next) is replaced through the
 * documented `setupClient` hook: it writes our small head and returns the shared body Buffer,
 * both corked into one writev. Otherwise the documented `setupRequest` path is used.
 */
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import AutocannonClient from 'autocannon/lib/httpClient.js';
import type { HttpRequestSpec } from './http-exchange.js';

/** The two members of autocannon 9's Client that the shared-body path relies on. */
interface ClientInternals {
  getRequestBuffer(): Buffer;
  /** The connection's socket (replaced on reconnect, always set before a request is written). */
  conn: Pick<Socket, 'cork' | 'uncork' | 'write'>;
}

/** True when this autocannon writes each request through `Client.prototype.getRequestBuffer`. */
export function sharedBodiesSupported(): boolean {
  return typeof AutocannonClient.prototype.getRequestBuffer === 'function';
}

/**
 * The request line and headers of `spec` for a body of `bodyBytes`, as one Buffer; `extra`
 * (the run's --header and User-Agent) where the request has no header of that name.
 */
export function requestHead(spec: HttpRequestSpec, host: string, bodyBytes: number, extra: Readonly<Record<string, string>> = {}): Buffer {
  let head = `${spec.method} ${spec.path} HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive\r\n`;
  for (const [name, value] of Object.entries(spec.headers)) head += `${name}: ${value}\r\n`;
  for (const [name, value] of Object.entries(extra)) if (!(name in spec.headers)) head += `${name}: ${value}\r\n`;
  head += `Content-Length: ${bodyBytes}\r\n\r\n`;
  return Buffer.from(head, 'latin1');
}

const uncork = (socket: ClientInternals['conn']): void => socket.uncork();

/**
 * Makes `client` send `next()`'s request each time it writes one: the head is written corked,
 * the shared body Buffer is returned for autocannon to write, and the socket is uncorked on
 * the next tick, so both leave in one writev and the body is never copied.
 */
export function sendSharedBodies(client: object, host: string, next: () => HttpRequestSpec, extra: Readonly<Record<string, string>> = {}): void {
  const internals = client as ClientInternals;
  internals.getRequestBuffer = function getRequestBuffer(this: ClientInternals): Buffer {
    const spec = next();
    const body = typeof spec.body === 'string' ? Buffer.from(spec.body, 'utf8') : spec.body;
    this.conn.cork();
    this.conn.write(requestHead(spec, host, body.length, extra));
    process.nextTick(uncork, this.conn);
    return body;
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
