/**
 * Small node:http servers on 127.0.0.1 that misbehave in one way each (issue 16): what a
 * broken or malicious target can do to a load generator. Large frames are streamed 64 KiB
 * at a time with backpressure, so the servers never hold them in memory, and every timer
 * and write stops when the client lets go.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startServer, type TestServer } from './throughput-helpers.js';

const MiB = 1024 * 1024;
export const KEEP_ALIVE = 'data: {"eventType":"KEEP_ALIVE","payload":null}\n\n';
export const FILLER = Buffer.alloc(64 * 1024, 'x');

/** What a stream server saw, for assertions that the run really met the misbehaviour. */
export interface ServerSeen {
  /** Stream requests (GET …/stream) received. */
  streams: number;
  /** Requests that were not stream requests (and not the reachability preflight). */
  others: number;
  /** Most bytes written on one connection before the client went away. */
  maxBytesOnOneConnection: number;
}

export interface HostileServer extends TestServer {
  seen: ServerSeen;
}

/** The reachability check (OPTIONS) and the credential check (GET of a chat session, not its stream): docs/design.md §2.2. */
export const isPreflight = (req: IncomingMessage): boolean =>
  req.method === 'OPTIONS' || (req.method === 'GET' && /\/chat_sessions\/[^/]+$/.test(req.url ?? ''));
export const isStream = (req: IncomingMessage): boolean => req.method === 'GET' && /\/stream$/.test(req.url ?? '');

/** Sends the stream's headers now: node:http would otherwise hold them back until the first write. */
export function sseHeaders(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  res.flushHeaders();
}

/** A stream handler gets the response, a byte counter for the connection, and the request. */
type StreamHandler = (res: ServerResponse, written: (bytes: number) => void, req: IncomingMessage) => void;

/**
 * A server whose stream requests get `onStream`; the preflight gets 204 (any answer proves
 * the target reachable) and anything else a plain 404, counted in `others`.
 */
export async function startStreamServer(onStream: StreamHandler): Promise<HostileServer> {
  const seen: ServerSeen = { streams: 0, others: 0, maxBytesOnOneConnection: 0 };
  const server = await startServer((req, res) => {
    if (isPreflight(req)) return void res.writeHead(204).end();
    if (!isStream(req)) {
      seen.others++;
      return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    }
    seen.streams++;
    let bytes = 0;
    onStream(
      res,
      (n) => {
        bytes += n;
        seen.maxBytesOnOneConnection = Math.max(seen.maxBytesOnOneConnection, bytes);
      },
      req,
    );
  });
  return { ...server, seen };
}

/**
 * Writes `data: ` and `lineBytes` bytes of one line, then the line's end; resolves when the
 * line is out, or false when the client went away first.
 */
function streamLine(res: ServerResponse, lineBytes: number, written: (bytes: number) => void): Promise<boolean> {
  return new Promise((resolve) => {
    let sent = 0;
    const gone = (): void => resolve(false);
    res.once('close', gone);
    res.write('data: ');
    const pump = (): void => {
      while (!res.destroyed && sent < lineBytes) {
        const chunk = FILLER.subarray(0, Math.min(FILLER.length, lineBytes - sent));
        sent += chunk.length;
        written(chunk.length);
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (res.destroyed) return;
      res.off('close', gone);
      res.write('\n\n', () => resolve(true));
    };
    pump();
  });
}

/** The eight behaviours of the hostile suite, and a healthy one to measure "normal" against. */
export const behaviours = {
  /** (a) 500, text/plain, to everything, the preflight included. */
  internalError: () => startServer((_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error')),

  /** (b) A KEEP_ALIVE right after the headers, then the socket destroyed. */
  resetAfterFirstFrame: () =>
    startStreamServer((res, written) => {
      sseHeaders(res);
      written(KEEP_ALIVE.length);
      res.write(KEEP_ALIVE, () => res.socket?.destroy());
    }),

  /** (c) 200, text/event-stream, 16 KiB of random bytes, to every request. */
  randomBytes: () =>
    startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(randomBytes(16 * 1024));
    }),

  /** (d) The preflight answered, then every request accepted and never answered (no headers). */
  stallAfterPreflight: () =>
    startServer((req, res) => {
      if (isPreflight(req)) res.writeHead(204).end();
    }),

  /** (d) Every request accepted and never answered, the reachability preflight too. */
  stallEverything: () => startServer(() => undefined),

  /** (e) A KEEP_ALIVE frame trickled one byte a second. */
  trickle: () =>
    startStreamServer((res, written) => {
      sseHeaders(res);
      let at = 0;
      const timer = setInterval(() => {
        res.write(KEEP_ALIVE[at % KEEP_ALIVE.length]!);
        written(1);
        at++;
      }, 1_000);
      res.on('close', () => clearInterval(timer));
    }),

  /** (f) One 100 MB line. */
  hugeLine: () =>
    startStreamServer((res, written) => {
      sseHeaders(res);
      void streamLine(res, 100 * MiB, written);
    }),

  /** (g) A 10 MB line every second (each a whole event), for as long as the client reads. */
  bigLineEverySecond: () =>
    startStreamServer((res, written) => {
      sseHeaders(res);
      const next = (): void => {
        const startedMs = Date.now();
        void streamLine(res, 10 * MiB, written).then((sent) => {
          if (sent) setTimeout(next, Math.max(0, 1_000 - (Date.now() - startedMs)));
        });
      };
      next();
    }),

  /** (h) One KEEP_ALIVE, then a clean end of the response. */
  closeAfterEveryEvent: () =>
    startStreamServer((res, written) => {
      sseHeaders(res);
      written(KEEP_ALIVE.length);
      res.end(KEEP_ALIVE);
    }),

  /** Not hostile: a KEEP_ALIVE every 500 ms (the first one interval after the open), the run's "normal" for memory. */
  healthy: () =>
    startStreamServer((res, written) => {
      sseHeaders(res);
      const timer = setInterval(() => {
        res.write(KEEP_ALIVE);
        written(KEEP_ALIVE.length);
      }, 500);
      res.on('close', () => clearInterval(timer));
    }),
};
