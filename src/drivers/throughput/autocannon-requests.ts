/**
 * How the closed model hands autocannon one request at a time without copying the body.
 *
 * autocannon's documented per-request hook (`requests[].setupRequest`) makes its request
 * builder concatenate head and body into a new Buffer for every request: a full copy of each
 * upload, measured at ~2.4× autocannon's own CPU per request for 256 KiB photos
 * (docs/throughput.md). So, when the installed autocannon has the method this relies on, each
 * connection's `getRequestBuffer` (what the connection writes next) is replaced through the
 * documented `setupClient` hook: it writes our small head and returns the shared body Buffer,
 * both corked into one writev. Otherwise the documented `setupRequest` path is used.
 */
import type { Socket } from 'node:net';
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

/** The request line and headers of `spec` for a body of `bodyBytes`, as one Buffer. */
export function requestHead(spec: HttpRequestSpec, host: string, bodyBytes: number): Buffer {
  let head = `${spec.method} ${spec.path} HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive\r\n`;
  for (const [name, value] of Object.entries(spec.headers)) head += `${name}: ${value}\r\n`;
  head += `Content-Length: ${bodyBytes}\r\n\r\n`;
  return Buffer.from(head, 'latin1');
}

const uncork = (socket: ClientInternals['conn']): void => socket.uncork();

/**
 * Makes `client` send `next()`'s request each time it writes one: the head is written corked,
 * the shared body Buffer is returned for autocannon to write, and the socket is uncorked on
 * the next tick, so both leave in one writev and the body is never copied.
 */
export function sendSharedBodies(client: object, host: string, next: () => HttpRequestSpec): void {
  const internals = client as ClientInternals;
  internals.getRequestBuffer = function getRequestBuffer(this: ClientInternals): Buffer {
    const spec = next();
    const body = typeof spec.body === 'string' ? Buffer.from(spec.body, 'utf8') : spec.body;
    this.conn.cork();
    this.conn.write(requestHead(spec, host, body.length));
    process.nextTick(uncork, this.conn);
    return body;
  };
}
