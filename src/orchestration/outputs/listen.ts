/**
 * Binds a live output's HTTP server. An address that cannot be had (port in use, host not
 * on this machine) is the user's flag at fault: one line naming the flag, exit 2, before
 * the target starts. Every request names a host the server may answer for, or gets 421 and
 * nothing else (allowed-host.ts).
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../../util/errors.js';
import { describeSystemError } from '../../util/system-error.js';
import { isAllowedHost } from './allowed-host.js';

/** A server for a live endpoint bound to `host`: `handler` sees only requests whose Host header it may answer. */
export function liveServer(host: string, handler: RequestListener): Server {
  return createServer((request, response) => {
    if (isAllowedHost(request.headers.host, host)) return handler(request, response);
    // The rejected name is not echoed: nothing of the request or the run goes back.
    response.writeHead(421, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
    response.end('misdirected request: this endpoint answers localhost, IP addresses and its --metrics-host only\n');
  });
}

/** Listens on host:port (0 = any free port); resolves with the URL origin it serves. */
export function listenOn(server: Server, host: string, port: number, flag: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(new ConfigError(`${flag}: cannot listen on ${host}:${port} (${describeSystemError(error)})`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve(`http://${shownHost}:${address.port}`);
    });
  });
}

/** Stops accepting, cuts open connections (SSE clients, keep-alive scrapers), waits for the close. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
