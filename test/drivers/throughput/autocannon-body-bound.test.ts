/**
 * The closed model's body bound (autocannon-body-bound.ts) on autocannon 9's real connections
 * against a node:http server: a body at the bound is an answer, one past it (sized or endless)
 * is reported as too large and never as an answer, the connection reconnects, and the next
 * answer on the new connection is read whole and right (a fresh parser).
 */
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { runConnections } from '../../../src/drivers/throughput/autocannon-connections.js';
import { startServer, type TestServer } from '../../support/throughput-helpers.js';

const BOUND = 1024;
const MiB = 1024 * 1024;
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
      {
        origin: server.url,
        connections: 1,
        timeoutMs: 5_000,
        maxBodyBytes: BOUND,
        requests: [{ onResponse: (_status, body) => bodies.push(body) }],
        setupClient: () => undefined,
      },
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
});
