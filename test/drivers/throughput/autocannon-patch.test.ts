/**
 * autocannon is pinned to exactly 9.0.0 because autocannon-requests.ts replaces a private
 * method of its connection class (`getRequestBuffer`) so that every request writes one shared
 * body Buffer instead of a per-request copy. These tests hold the pin and the patch to what
 * they promise, against a real node:http server: the wire carries exactly the shared body on
 * every connection, every answer the server sent is counted, and the patch is really applied
 * (each connection owns the method, the library's own is never called).
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import AutocannonClient from 'autocannon/lib/httpClient.js';
import { afterEach, describe, expect, it } from 'vitest';
import { runConnections } from '../../../src/drivers/throughput/autocannon-connections.js';
import { RequestHeads, sendSharedBodies, sharedBodiesSupported } from '../../../src/drivers/throughput/autocannon-requests.js';
import { runClosedModel } from '../../../src/drivers/throughput/closed-model.js';
import type { HttpRequestSpec } from '../../../src/drivers/throughput/http-exchange.js';
import { buildImageCorpus } from '../../../src/drivers/throughput/images/image-corpus.js';
import { defaultPhotoBody } from '../../../src/drivers/throughput/multipart-body.js';
import { createPhotoWorkload, photoHeaders } from '../../../src/drivers/throughput/photo-workload.js';
import { buildPhotoUploadSummary } from '../../../src/metrics/throughput-summary.js';
import { GOOD_HEADERS, photoAnswer, readBody, sendJson, startServer, type TestServer, testProfile, testRun } from '../../support/throughput-helpers.js';

const [image] = buildImageCorpus(['jpeg'], [32 * 1024]);
const shared = defaultPhotoBody(image!);
const participant = { userId: 'p-1', token: 'token-1', chatSessionIds: ['cs-1'] };
const PATH = `/api/v1/participants/${participant.userId}/profile_photo`;

/** What the server saw on each connection: requests, and those whose bytes were not the shared body. */
interface ConnectionLog {
  requests: number;
  wrong: number;
}

/** A node:http upload endpoint that compares every request body, byte for byte, with the shared body. */
async function startBodyCheckingServer(): Promise<{ server: TestServer; connections: Map<Socket, ConnectionLog>; total: () => number }> {
  const connections = new Map<Socket, ConnectionLog>();
  const server = await startServer((req: IncomingMessage, res: ServerResponse) => {
    const log = connections.get(req.socket) ?? { requests: 0, wrong: 0 };
    connections.set(req.socket, log);
    void readBody(req).then((body) => {
      log.requests++;
      const exact =
        req.method === 'PATCH' &&
        req.url === PATH &&
        req.headers['content-type'] === shared.contentType &&
        Number(req.headers['content-length']) === shared.body.length &&
        body.equals(shared.body);
      if (!exact) log.wrong++;
      sendJson(res, 200, photoAnswer(body, participant.userId), 'application/json', GOOD_HEADERS);
    });
  });
  const total = (): number => [...connections.values()].reduce((n, log) => n + log.requests, 0);
  return { server, connections, total };
}

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('autocannon private-API patch (shared request bodies)', () => {
  it('runs against the exact autocannon version package.json pins', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
    // An exact version, not a range: a minor release may rename what the patch replaces.
    expect(pkg.dependencies.autocannon).toBe('9.0.0');
    const installed = createRequire(import.meta.url)('autocannon/package.json') as { version: string };
    expect(installed.version).toBe(pkg.dependencies.autocannon);
    expect(sharedBodiesSupported()).toBe(true);
  });

  it('writes the one shared body Buffer on every request of every connection, and every answer the server sent is counted', async () => {
    const { server, connections, total } = await startBodyCheckingServer();
    running = server;
    const spec: HttpRequestSpec = { method: 'PATCH', path: PATH, headers: photoHeaders(participant.token, 'key-1', shared.contentType), body: shared.body };
    const CONNECTIONS = 4;
    const clients: object[] = [];
    const ownMethodAfterPatch: boolean[] = [];
    let bodiesReturned = 0;
    let copies = 0;
    let answers = 0;
    const failures: string[] = [];
    await runConnections(
      {
        origin: server.url,
        connections: CONNECTIONS,
        timeoutMs: 5_000,
        maxBodyBytes: 1024 * 1024,
        requests: [{}],
        setupClient: (client) => {
          sendSharedBodies(client, new RequestHeads(new URL(server.url).host), () => ({ spec, traceparent: null }));
          // Only the patch gives a connection its own getRequestBuffer; autocannon's is on the prototype.
          ownMethodAfterPatch.push(Object.hasOwn(client, 'getRequestBuffer'));
          const connection = client as unknown as { getRequestBuffer: () => Buffer };
          const patched = connection.getRequestBuffer;
          connection.getRequestBuffer = function (this: unknown): Buffer {
            const bytes = patched.call(this);
            bodiesReturned++;
            if (bytes !== shared.body) copies++;
            return bytes;
          };
          clients.push(client);
        },
      },
      {
        onAnswer: (_client, status) => {
          answers++;
          if (status !== 200) failures.push(`status ${status}`);
        },
        onConnectionError: (error) => failures.push(error.message),
        onTimeout: () => failures.push('timeout'),
        onBodyTooLarge: () => failures.push('body too large'),
      },
      performance.now() + 600,
      new AbortController().signal,
    );

    expect(failures).toEqual([]);
    expect(clients).toHaveLength(CONNECTIONS);
    expect(ownMethodAfterPatch).toEqual(Array(CONNECTIONS).fill(true));
    // On the wire: each connection carried exactly the shared multipart body, every time.
    expect(connections.size).toBe(CONNECTIONS);
    for (const log of connections.values()) {
      expect(log.requests).toBeGreaterThan(10);
      expect(log.wrong).toBe(0);
    }
    // What autocannon writes is the very Buffer we share: never a copy. Each connection had
    // written one more request when it was destroyed at the deadline, whose answer the server
    // may or may not have sent: every answer it sent before that was counted, once.
    expect(copies).toBe(0);
    expect(bodiesReturned - answers).toBe(CONNECTIONS);
    expect(total() - answers).toBeGreaterThanOrEqual(0);
    expect(total() - answers).toBeLessThanOrEqual(CONNECTIONS);
  });

  it('is applied by the closed model `run` uses: autocannon never builds a request itself', async () => {
    const { server, connections, total } = await startBodyCheckingServer();
    running = server;
    const prototype = AutocannonClient.prototype as { getRequestBuffer: () => Buffer };
    const original = prototype.getRequestBuffer;
    let libraryBuilt = 0;
    prototype.getRequestBuffer = function (this: unknown): Buffer {
      libraryBuilt++;
      return original.call(this);
    };
    const run = async (sharedBodies: boolean): Promise<{ requests: number; errors: number; libraryBuilt: number }> => {
      libraryBuilt = 0;
      const profile = testProfile(700, { model: 'closed', connections: 3, overrideShare: 0 });
      const workload = createPhotoWorkload({ basePath: '/api/v1', apiKey: 'key-1', participants: [participant], corpus: [image!], overrideShare: 0 });
      const metrics = await testRun(server.url, { apiKey: 'key-1', participants: [participant] }, profile).run({
        name: 'closed-model',
        run: (ctx) => runClosedModel(ctx, profile.photoUpload, workload, { sharedBodies }),
      });
      const summary = buildPhotoUploadSummary(metrics, profile.photoUpload);
      return { requests: summary.requests, errors: summary.errors, libraryBuilt };
    };
    try {
      const patched = await run(true);
      expect(patched.libraryBuilt).toBe(0);
      expect(patched.errors).toBe(0);
      expect(patched.requests).toBeGreaterThan(30);
      // Answers still in flight when the run stops reach the server but not the report: at most one per connection.
      expect(total() - patched.requests).toBeGreaterThanOrEqual(0);
      expect(total() - patched.requests).toBeLessThanOrEqual(3);
      expect(connections.size).toBe(3);
      for (const log of connections.values()) {
        expect(log.requests).toBeGreaterThan(5);
        expect(log.wrong).toBe(0);
      }
      // Control: without the patch every request goes through the library's method, so the spy can see it.
      const unpatched = await run(false);
      expect(unpatched.libraryBuilt).toBeGreaterThanOrEqual(unpatched.requests);
      expect(unpatched.requests).toBeGreaterThan(30);
    } finally {
      prototype.getRequestBuffer = original;
    }
  });
});
