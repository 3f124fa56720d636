/**
 * Hostile servers for the bounds on what a target sends (issue 27, items 4 and 6): answers
 * whose body never ends, and streams whose `id:` no HTTP header can carry as it stands.
 * Both hold healthy streams otherwise (a KEEP_ALIVE every 500 ms), so only the misbehaviour
 * under test shows. Bodies are streamed 64 KiB at a time with backpressure.
 */
import type { ServerResponse } from 'node:http';
import { FILLER, isPreflight, isStream, KEEP_ALIVE, type ServerSeen, sseHeaders, startStreamServer } from './hostile-servers.js';
import { GOOD_HEADERS, startServer, type TestServer } from './throughput-helpers.js';

/** A KEEP_ALIVE every 500 ms (the first one interval after the open); `frame` may add an id line. */
function keepAlives(res: ServerResponse, frame: () => string, endAfter = Number.POSITIVE_INFINITY): void {
  sseHeaders(res);
  let sent = 0;
  const timer = setInterval(() => {
    res.write(frame());
    if (++sent >= endAfter) {
      clearInterval(timer);
      res.end();
    }
  }, 500);
  res.on('close', () => clearInterval(timer));
}

/** What an endless-body server saw. */
export interface BodySeen {
  /** Requests answered with a body (every request but streams and the preflight). */
  answered: number;
  /** Most body bytes written to one answer before the client let go. */
  maxBodyBytes: number;
}

export interface BodyServer extends TestServer {
  seen: BodySeen;
}

/**
 * Writes filler until the client goes away, one 64 KiB chunk every 4 ms at most (16 MB/s),
 * honouring backpressure; `written` counts it. The pace keeps a shared CI machine's CPU for the
 * driver's event loop (generator.healthy is held to 250 ms) while still offering hundreds of MB.
 */
function writeForever(res: ServerResponse, written: (bytes: number) => void): void {
  const pump = (): void => {
    if (res.destroyed) return;
    written(FILLER.length);
    const next = (): void => void setTimeout(pump, 4);
    if (res.write(FILLER)) next();
    else res.once('drain', next);
  };
  pump();
}

/**
 * Healthy streams; every other request (uploads, tag links, message posts, membership calls)
 * answered 200 with the five headers and a JSON body: `endless` streams one that never ends,
 * otherwise a small `{}` (the well-behaved server a hostile run's memory is held to).
 */
export async function startBodyServer(endless: boolean): Promise<BodyServer> {
  const seen: BodySeen = { answered: 0, maxBodyBytes: 0 };
  const server = await startServer((req, res) => {
    req.resume();
    if (isPreflight(req)) return void res.writeHead(204).end();
    if (isStream(req)) return keepAlives(res, () => KEEP_ALIVE);
    seen.answered++;
    const status = req.method === 'POST' && /\/chat_messages$/.test(req.url ?? '') ? 201 : 200;
    if (!endless) return void res.writeHead(status, { ...GOOD_HEADERS, 'content-type': 'application/json' }).end('{}');
    res.writeHead(status, { ...GOOD_HEADERS, 'content-type': 'application/json' });
    let bytes = 0;
    writeForever(res, (n) => {
      bytes += n;
      seen.maxBodyBytes = Math.max(seen.maxBodyBytes, bytes);
    });
  });
  return { ...server, seen };
}

/**
 * The preflight answered; every other request answered with a status line and then header
 * lines without end, written raw to the socket (node:http cannot write such a head), paced as
 * writeForever paces a body. `seen.maxBodyBytes` counts the head's bytes here.
 */
export async function startHeadServer(): Promise<BodyServer> {
  const seen: BodySeen = { answered: 0, maxBodyBytes: 0 };
  const line = Buffer.from(`x-filler: ${'h'.repeat(1000)}\r\n`.repeat(64));
  const server = await startServer((req, res) => {
    req.resume();
    if (isPreflight(req)) return void res.writeHead(204).end();
    seen.answered++;
    const socket = req.socket;
    socket.write('HTTP/1.1 200 OK\r\n');
    let bytes = 0;
    const pump = (): void => {
      if (socket.destroyed) return;
      bytes += line.length;
      seen.maxBodyBytes = Math.max(seen.maxBodyBytes, bytes);
      const next = (): void => void setTimeout(pump, 4);
      if (socket.write(line)) next();
      else socket.once('drain', next);
    };
    pump();
  });
  return { ...server, seen };
}

/** What an event-id server saw: the Last-Event-ID of every stream request, as node:http decodes it (latin1). */
export interface IdSeen extends ServerSeen {
  /** Stream requests that carried Last-Event-ID, by header value. */
  lastEventIds: string[];
}

export interface IdServer extends TestServer {
  seen: IdSeen;
}

/**
 * Streams whose every KEEP_ALIVE carries `id: <id>` and that end after two of them, so every
 * stream reconnects with (or without) that id; everything else is answered 404.
 */
export async function startIdServer(id: string): Promise<IdServer> {
  const lastEventIds: string[] = [];
  const server = await startStreamServer((res, _written, req) => {
    const lastEventId = req.headers['last-event-id'];
    if (typeof lastEventId === 'string') lastEventIds.push(lastEventId);
    keepAlives(res, () => `id: ${id}\n${KEEP_ALIVE}`, 2);
  });
  // The server's own `seen`, which it goes on counting into, with the ids beside.
  return { ...server, seen: Object.assign(server.seen, { lastEventIds }) };
}
