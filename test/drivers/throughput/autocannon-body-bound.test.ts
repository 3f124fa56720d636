/**
 * The closed model's body bound (autocannon-body-bound.ts) on autocannon 9's real connections
 * against a node:http server: a body at the bound is an answer, one past it (sized or endless)
 * is reported as too large and never as an answer, the connection reconnects, and the next
 * answer on the new connection is read whole and right (a fresh parser). What the parser
 * holds besides the body (status line, header lines, the chunk-size line under way) is held
 * to the same bound: an endless head costs the connection as `UND_ERR_HEADERS_OVERFLOW`, and
 * an answer of many small chunks is still an answer.
 */
import type { ServerResponse } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConnectionSettings, runConnections } from '../../../src/drivers/throughput/autocannon-connections.js';
import { startServer, type TestServer } from '../../support/throughput-helpers.js';

const BOUND = 1024;
const MiB = 1024 * 1024;

/** One connection to `origin`, its answers' bodies held to BOUND and kept in `bodies`. */
const oneBoundedConnection = (origin: string, bodies: string[]): ConnectionSettings => ({
  origin,
  connections: 1,
  timeoutMs: 5_000,
  maxBodyBytes: BOUND,
  requests: [{ onResponse: (_status, body) => bodies.push(body) }],
  setupClient: () => undefined,
});
let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function endless(res: ServerResponse, written: (bytes: number) => void): void {
  const chunk = Buffer.alloc(16 * 1024, 'e');
  const pump = (): void => {
    while (!res.destroyed) {
      written(chunk.length);
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  pump();
}

describe('closed model: bounded answers (autocannon connections)', () => {
  it('answers at the bound count, past it (sized or endless) are too large, and the reconnected connection reads on', async () => {
    let requests = 0;
    let maxEndless = 0;
    server = await startServer((req, res) => {
      req.resume();
      const n = requests++;
      // Every other answer is over the bound: 1 byte over, with a length, or endless and chunked.
      if (n % 4 === 1) return void res.writeHead(200, { 'content-length': BOUND + 1 }).end(Buffer.alloc(BOUND + 1, 'o'));
      if (n % 4 === 3) {
        res.writeHead(200);
        let bytes = 0;
        return endless(res, (more) => {
          bytes += more;
          maxEndless = Math.max(maxEndless, bytes);
        });
      }
      res.writeHead(200, { 'x-answer': String(n) });
      res.write(Buffer.alloc(BOUND / 2, 'a'));
      setTimeout(() => res.end(Buffer.alloc(BOUND / 2, 'b')), 5);
    });
    const bodies: string[] = [];
    let answers = 0;
    let tooLarge = 0;
    const failures: string[] = [];
    await runConnections(
      oneBoundedConnection(server.url, bodies),
      {
        onAnswer: (_client, status) => {
          answers++;
          if (status !== 200) failures.push(`status ${status}`);
        },
        onConnectionError: (error) => failures.push(error.message),
        onTimeout: () => failures.push('timeout'),
        onBodyTooLarge: (_client, maxBodyBytes) => {
          tooLarge++;
          expect(maxBodyBytes).toBe(BOUND);
        },
      },
      performance.now() + 800,
      new AbortController().signal,
    );
    expect(failures).toEqual([]);
    expect(answers).toBeGreaterThan(4);
    expect(tooLarge).toBeGreaterThanOrEqual(answers - 1);
    // Only whole answers of exactly the bound reached autocannon's callbacks: no oversized, none torn.
    expect(bodies).toHaveLength(answers);
    expect(new Set(bodies)).toEqual(new Set(['a'.repeat(BOUND / 2) + 'b'.repeat(BOUND / 2)]));
    expect(maxEndless).toBeGreaterThan(0);
    expect(maxEndless).toBeLessThan(16 * MiB);
  });

  // http-parser-js keeps a line until its end, and every header line of a head: before the
  // bound, one connection held all it was sent (docs/design.md §6, "Bounded bodies").
  it.each([
    ['endless header lines', 'HTTP/1.1 200 OK\r\n', Buffer.from(`x-filler: ${'h'.repeat(1000)}\r\n`.repeat(16))],
    ['an endless status line', 'HTTP/1.1 200 ', Buffer.alloc(16 * 1024, 's')],
    ['an endless chunk-size line', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n', Buffer.alloc(16 * 1024, '0')],
  ])('%s: the head stops at the bound, the connection is closed as UND_ERR_HEADERS_OVERFLOW and reconnects', async (_name, start, filler) => {
    let maxOnOneConnection = 0;
    let connections = 0;
    const sockets = new Set<Socket>();
    const raw = createServer((socket) => {
      connections++;
      sockets.add(socket);
      socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
      let written = 0;
      socket.once('data', () => {
        socket.write(start);
        const pump = (): void => {
          while (!socket.destroyed) {
            written += filler.length;
            maxOnOneConnection = Math.max(maxOnOneConnection, written);
            if (!socket.write(filler)) return void socket.once('drain', pump);
          }
        };
        pump();
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const { port } = raw.address() as { port: number };
    const errors: string[] = [];
    let answers = 0;
    try {
      await runConnections(
        {
          origin: `http://127.0.0.1:${port}`,
          connections: 1,
          timeoutMs: 5_000,
          maxBodyBytes: BOUND,
          requests: [{}],
          setupClient: () => undefined,
        },
        {
          onAnswer: () => answers++,
          onConnectionError: (error) => errors.push(`${(error as { code?: string }).code}: ${error.message}`),
          onTimeout: () => errors.push('timeout'),
          onBodyTooLarge: () => errors.push('body too large'),
        },
        performance.now() + 500,
        new AbortController().signal,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => raw.close(resolve));
    }
    expect(answers).toBe(0);
    expect(errors.length).toBeGreaterThan(1);
    expect(new Set(errors)).toEqual(
      new Set([`UND_ERR_HEADERS_OVERFLOW: the answer's head grew beyond ${BOUND} bytes; the rest was not read and the connection was closed`]),
    );
    expect(connections).toBeGreaterThan(1);
    expect(maxOnOneConnection).toBeLessThan(16 * MiB);
  });

  it('an answer of many small chunks (chunk framing beyond the bound, body within it) is an answer', async () => {
    server = await startServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      // 1,000 one-byte chunks: about 6 bytes of framing each, past the 1 KiB bound in all.
      for (let i = 0; i < BOUND - 24; i++) res.write('c');
      res.end();
    });
    const bodies: string[] = [];
    const failures: string[] = [];
    await runConnections(
      oneBoundedConnection(server.url, bodies),
      {
        onAnswer: () => undefined,
        onConnectionError: (error) => failures.push(error.message),
        onTimeout: () => failures.push('timeout'),
        onBodyTooLarge: () => failures.push('body too large'),
      },
      performance.now() + 300,
      new AbortController().signal,
    );
    expect(failures).toEqual([]);
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies[0]).toBe('c'.repeat(BOUND - 24));
  });
});
