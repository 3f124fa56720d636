/**
 * SseStream against real node:http servers on 127.0.0.1: the frame bound (docs/design.md §6)
 * fails a stream whose line or event outgrows it, lets go of the socket at once, and keeps
 * the process's memory flat while the target keeps offering a 100 MB line; and a held stream
 * keeps nothing of its answer's headers.
 */
import type { ServerResponse } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import type { FailureCode } from '../../src/contract/failure-codes.js';
import { SseStream, type StreamHost, StreamState } from '../../src/engine/sse-reader.js';
import { startServer, type TestServer } from '../support/throughput-helpers.js';

const MiB = 1024 * 1024;

interface Seen {
  events: string[];
  drops: Array<{ kind: FailureCode; detail: string }>;
  openFailures: string[];
}

function recordingHost(): StreamHost & { seen: Seen } {
  const seen: Seen = { events: [], drops: [], openFailures: [] };
  return {
    seen,
    onOpen: () => undefined,
    onOpenFailed: (_stream, kind) => seen.openFailures.push(kind),
    onData: (_stream, data) => seen.events.push(data),
    onDropped: (_stream, kind, detail) => seen.drops.push({ kind, detail }),
  };
}

function startSse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  res.write(`data: {"eventType":"KEEP_ALIVE"}\n\n`);
}

/** What one connection of a line-streaming server managed to write before the client let go. */
interface Offer {
  bytesWritten: number;
  closed: Promise<void>;
}

/**
 * Sends `data: ` and then one line of `lineBytes` bytes, 64 KiB at a time, honouring
 * backpressure: the line is never in the server's memory, only one reused chunk is.
 */
async function startLineServer(lineBytes: number): Promise<{ server: TestServer; offers: Offer[] }> {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const offers: Offer[] = [];
  const server = await startServer((_req, res) => {
    startSse(res);
    res.write('data: ');
    let closed = false;
    const offer: Offer = { bytesWritten: 0, closed: new Promise((resolve) => res.on('close', resolve)) };
    offer.closed.then(() => {
      closed = true;
    });
    offers.push(offer);
    const pump = (): void => {
      while (!closed && offer.bytesWritten < lineBytes) {
        offer.bytesWritten += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!closed) res.end('\n\n');
    };
    pump();
  });
  return { server, offers };
}

async function openStream(url: string, host: StreamHost, maxFrameBytes: number): Promise<SseStream> {
  const stream = new SseStream('chat', 0, 's1');
  await stream.open({ origin: url, path: '/stream', headers: {}, headersTimeoutMs: 5_000, localAddress: null, maxFrameBytes }, host);
  return stream;
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Peak RSS growth over a baseline while `work` runs, sampled every 10 ms. */
async function peakRssGrowth(work: () => Promise<void>): Promise<number> {
  globalThis.gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, process.memoryUsage.rss()) - baseline;
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('SseStream frame bound', () => {
  it('delivers events up to the bound and stays open', async () => {
    const event = `{"eventType":"KEEP_ALIVE","pad":"${'p'.repeat(60 * 1024)}"}`;
    server = await startServer((_req, res) => {
      startSse(res);
      res.write(`data: ${event}\n\n`);
    });
    const host = recordingHost();
    const stream = await openStream(server.url, host, 64 * 1024);
    await until(() => host.seen.events.length === 2, 5_000);
    expect(host.seen.events[1]).toBe(event);
    expect(stream.state).toBe(StreamState.Open);
    expect(host.seen.drops).toEqual([]);
    stream.close();
  });

  it('fails a 100 MB line as frame-too-large after about the bound, closes the socket, and keeps RSS flat', async () => {
    const lineServer = await startLineServer(100 * MiB);
    server = lineServer.server;
    const host = recordingHost();
    let stream: SseStream | undefined;
    const growth = await peakRssGrowth(async () => {
      stream = await openStream(server!.url, host, MiB);
      await until(() => host.seen.drops.length > 0, 10_000);
      await lineServer.offers[0]!.closed;
    });
    expect(host.seen.drops).toEqual([{ kind: 'frame-too-large', detail: `a line grew beyond ${MiB} bytes` }]);
    expect(stream!.state).toBe(StreamState.Closed);
    // What was written but not yet read sits in the kernel's socket buffers (a few MiB at most).
    expect(lineServer.offers[0]!.bytesWritten).toBeLessThan(16 * MiB);
    expect(growth).toBeLessThan(64 * MiB);
  });

  it('without a low bound the same measurement sees the buffered line (the RSS check above can fail)', async () => {
    const lineServer = await startLineServer(100 * MiB);
    server = lineServer.server;
    const host = recordingHost();
    const growth = await peakRssGrowth(async () => {
      await openStream(server!.url, host, 96 * MiB);
      await until(() => host.seen.drops.length > 0, 20_000);
    });
    expect(host.seen.drops[0]?.kind).toBe('frame-too-large');
    expect(growth).toBeGreaterThan(64 * MiB);
  });

  it('fails an event assembled from many short data lines once it outgrows the bound', async () => {
    const line = `data: ${'d'.repeat(1_000)}\n`;
    server = await startServer((_req, res) => {
      startSse(res);
      for (let i = 0; i < 200; i++) res.write(line);
    });
    const host = recordingHost();
    const stream = await openStream(server.url, host, 64 * 1024);
    await until(() => host.seen.drops.length > 0, 5_000);
    expect(host.seen.drops).toEqual([{ kind: 'frame-too-large', detail: `an event grew beyond ${64 * 1024} bytes` }]);
    expect(host.seen.events).toHaveLength(1);
    expect(stream.state).toBe(StreamState.Closed);
  });
});

describe('SseStream close', () => {
  /** A server that counts requests and closed connections; it answers headers only when `answer` says so. */
  async function closingServer(answer: boolean): Promise<{ requests: () => number; closed: () => number }> {
    let requests = 0;
    let closed = 0;
    server = await startServer((req, res) => {
      requests++;
      req.socket.on('close', () => closed++);
      if (answer) startSse(res);
    });
    return { requests: () => requests, closed: () => closed };
  }

  it('lets go of an open stream’s connection, and leaves stack traces on', async () => {
    const seen = await closingServer(true);
    const limit = Error.stackTraceLimit;
    const host = recordingHost();
    const stream = await openStream((server as TestServer).url, host, MiB);
    await until(() => host.seen.events.length > 0, 5_000);
    stream.close();
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('after close').stack?.split('\n').length).toBeGreaterThan(1);
    await until(() => seen.closed() === 1, 5_000);
    expect(stream.state).toBe(StreamState.Closed);
    expect(host.seen.drops).toEqual([]);
  });

  it('lets go of a stream still waiting for its headers, and leaves stack traces on', async () => {
    const seen = await closingServer(false);
    const limit = Error.stackTraceLimit;
    const host = recordingHost();
    const stream = new SseStream('chat', 0, 's1');
    const opening = stream.open(
      { origin: (server as TestServer).url, path: '/stream', headers: {}, headersTimeoutMs: 5_000, localAddress: null, maxFrameBytes: MiB },
      host,
    );
    await until(() => seen.requests() === 1, 5_000);
    stream.close();
    expect(Error.stackTraceLimit).toBe(limit);
    await opening;
    await until(() => seen.closed() === 1, 5_000);
    expect(stream.state).toBe(StreamState.Closed);
    expect(host.seen.drops).toEqual([]);
  });
});

describe('event ids and Last-Event-ID', () => {
  /** A stream server that sends one event with `id: <id>` and records the Last-Event-ID bytes of each open. */
  async function idServer(id: string): Promise<{ server: TestServer; lastEventIds: Array<string | undefined> }> {
    const lastEventIds: Array<string | undefined> = [];
    const started = await startServer((req, res) => {
      const header = req.headers['last-event-id'];
      lastEventIds.push(typeof header === 'string' ? Buffer.from(header, 'latin1').toString('utf8') : undefined);
      startSse(res);
      res.write(`id: ${id}\ndata: {"eventType":"KEEP_ALIVE"}\n\n`);
    });
    return { server: started, lastEventIds };
  }

  async function reopenWith(url: string, lastEventId: string): Promise<SseStream> {
    const stream = new SseStream('chat', 0, 's1');
    await stream.open(
      { origin: url, path: '/stream', headers: {}, headersTimeoutMs: 5_000, localAddress: null, maxFrameBytes: MiB, lastEventId },
      recordingHost(),
    );
    return stream;
  }

  it('keeps an id outside Latin-1 and sends it back as its UTF-8 bytes', async () => {
    const started = await idServer('msg-✓-42');
    server = started.server;
    const host = recordingHost();
    const first = await openStream(server.url, host, MiB);
    await until(() => host.seen.events.length === 2, 5_000);
    expect(first.lastEventId).toBe('msg-✓-42');
    first.close();
    const second = await reopenWith(server.url, first.lastEventId!);
    expect(second.state).toBe(StreamState.Open);
    expect(second.resumedFrom).toBe(Buffer.from('msg-✓-42', 'utf8').toString('latin1'));
    second.close();
    expect(started.lastEventIds).toEqual([undefined, 'msg-✓-42']);
  });

  it.each([
    ['a control character', 'msg-\u0001-42'],
    ['past the 1 KiB bound', 'z'.repeat(64 * 1024)],
    ['empty (the target reset it)', ''],
  ])('reopens without Last-Event-ID when the id is %s, as no resume', async (_what, id) => {
    const started = await idServer(id);
    server = started.server;
    const host = recordingHost();
    const first = await openStream(server.url, host, MiB);
    await until(() => host.seen.events.length === 2, 5_000);
    // An id past the bound is kept only as far as shows it too long.
    expect(first.lastEventId!.length).toBeLessThanOrEqual(1025);
    first.close();
    const second = await reopenWith(server.url, first.lastEventId!);
    expect(second.state).toBe(StreamState.Open);
    expect(second.resumedFrom).toBeNull();
    second.close();
    expect(started.lastEventIds).toEqual([undefined, undefined]);
  });
});

describe('what a held stream keeps', () => {
  const HEADER_BYTES = 200;

  /**
   * A raw TCP server answering every request with `headerCount` padding headers, one KEEP_ALIVE,
   * then nothing: the server holds a socket per stream and no copy of what it wrote, so the
   * client's heap is what differs between two header counts.
   */
  async function rawSseServer(headerCount: number): Promise<{ url: string; close: () => Promise<void> }> {
    const padding = Array.from({ length: headerCount }, (_, i) => `x-pad-${i}: ${'p'.repeat(HEADER_BYTES)}\r\n`).join('');
    const answer = `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n${padding}transfer-encoding: chunked\r\n\r\n`;
    const event = 'data: {"eventType":"KEEP_ALIVE"}\n\n';
    const chunk = `${Buffer.byteLength(event).toString(16)}\r\n${event}\r\n`;
    const sockets = new Set<Socket>();
    const raw = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('data', () => socket.write(answer + chunk));
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const { port } = raw.address() as { port: number };
    return {
      url: `http://127.0.0.1:${port}`,
      close: async () => {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => raw.close(resolve));
      },
    };
  }

  it('keeps nothing of its answer’s headers: streams answered with 60 headers hold no more heap than streams answered with none', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const STREAMS = 300;
    /** Heap held per open stream, after a full collection on either side. */
    const heapPerStream = async (headerCount: number): Promise<number> => {
      const target = await rawSseServer(headerCount);
      const host = recordingHost();
      try {
        gc();
        const before = process.memoryUsage().heapUsed;
        const streams = await Promise.all(Array.from({ length: STREAMS }, () => openStream(target.url, host, MiB)));
        await until(() => host.seen.events.length === STREAMS, 20_000);
        gc();
        const held = process.memoryUsage().heapUsed - before;
        expect(streams.every((stream) => stream.state === StreamState.Open)).toBe(true);
        for (const stream of streams) stream.close();
        return held / STREAMS;
      } finally {
        await target.close();
        // The closed connections are let go of on the next turns of the loop, before the next count.
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    // A first round loads and compiles what every open runs, which the counts below must not see.
    await heapPerStream(0);
    const none = await heapPerStream(0);
    const many = await heapPerStream(60);
    // 60 headers are 12 KiB of answer per stream (under undici's 16 KiB bound): a reader that kept them would hold about as much again.
    expect(many - none).toBeLessThan(3_000);
  }, 60_000);
});
