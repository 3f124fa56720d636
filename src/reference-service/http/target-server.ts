/**
 * The reference target's listening server: node:http, node:https, or node:http2 when it
 * serves HTTP/2 (docs/target.md "HTTP/2"): over TLS, h2 and HTTP/1.1 side by side through
 * ALPN (`allowHTTP1`), as a load balancer in front of a real service offers them; in plain
 * text, h2c with prior knowledge only (an HTTP/1.1 client cannot reach it, as with any h2c
 * port). Handlers see one request/response shape: HTTP/2's compatibility API mirrors
 * node:http's, so the dispatcher and the routes do not know which protocol carried them.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { constants, createServer as createH2cServer, createSecureServer, type Http2ServerResponse, type Http2Session } from 'node:http2';
import { createServer as createHttpsServer } from 'node:https';
import type { Server as NetServer } from 'node:net';
import { handleClientError } from './client-error.js';
import type { TargetTls } from './tls-identity.js';

/** A listening server and how to end every connection it holds. */
export interface TargetServer {
  server: NetServer;
  /** Stops accepting and ends every connection (streams included); resolves when closed. */
  close(): Promise<void>;
}

/** How the target speaks: HTTP/1.1 only, or HTTP/2 too. */
export interface ServeProtocol {
  tls: TargetTls | null;
  http2: boolean;
}

export function createTargetServer({ tls, http2 }: ServeProtocol, handler: RequestListener): TargetServer {
  const clientCa = tls?.clientCa ? { ca: [tls.clientCa], requestCert: true, rejectUnauthorized: true } : {};
  if (!http2) {
    const server =
      tls === null ? createServer({ noDelay: true }, handler) : createHttpsServer({ noDelay: true, cert: tls.cert, key: tls.key, ...clientCa }, handler);
    return closable(server, () => server.closeAllConnections());
  }
  // The compatibility API hands HTTP/1.1 requests (allowHTTP1) and HTTP/2 streams to the same listener.
  const listener = handler as unknown as (req: unknown, res: unknown) => void;
  const server = tls === null ? createH2cServer({}, listener) : createSecureServer({ cert: tls.cert, key: tls.key, allowHTTP1: true, ...clientCa }, listener);
  const sessions = new Set<Http2Session>();
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
    // A client that goes away mid-stream is ordinary under load; nothing to report.
    session.on('error', () => undefined);
  });
  return closable(server, () => {
    for (const session of sessions) session.destroy();
  });
}

/** `server` with its bad-request handling, closed by refusing new connections, then ending the open ones. */
function closable(server: TargetServer['server'], endOpenOnes: () => void): TargetServer {
  server.on('clientError', handleClientError);
  return {
    server,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        endOpenOnes();
      }),
  };
}

/**
 * Cuts one response the way a failing server would (the drop fault): over HTTP/1.1 the
 * connection goes; over HTTP/2 only this stream is reset, as the other streams multiplexed
 * on the participant's connection did nothing wrong.
 */
export function cutResponse(res: ServerResponse | Http2ServerResponse): void {
  if ('stream' in res && res.stream) {
    res.stream.close(constants.NGHTTP2_INTERNAL_ERROR);
    return;
  }
  (res as ServerResponse).socket?.destroy();
  res.destroy();
}

/** The protocol a request came over, for the stats: `h2` or `http/1.1`. */
export const protocolOf = (req: IncomingMessage): 'h2' | 'http/1.1' => (req.httpVersionMajor === 2 ? 'h2' : 'http/1.1');
