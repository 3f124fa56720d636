/**
 * What the closed model's shared-body path puts on the wire, now that a request's head is built
 * from a prefix made once per frozen headers object and read answers come through one shared
 * read Buffer: a token renewed mid-run reaches the next requests, every request carries a
 * traceparent of its own (and only one), the run's extra headers are sent, and answers that
 * arrive in pieces on several connections at once are each read whole.
 */
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runConnections } from '../../../src/drivers/throughput/autocannon-connections.js';
import { photoUploadScenario } from '../../../src/drivers/throughput/index.js';
import { runScenarios } from '../../../src/engine/run-scenarios.js';
import { defaultTransport } from '../../../src/engine/transport.js';
import { MetricSet } from '../../../src/metrics/metric-set.js';
import { buildPhotoUploadSummary } from '../../../src/metrics/throughput-summary.js';
import { parseTraceparent } from '../../../src/util/traceparent.js';
import { checksOf, GOOD_HEADERS, photoAnswer, readBody, sendJson, startServer, testProfile, testRun } from '../../support/throughput-helpers.js';

describe('closed model requests (shared-body path)', () => {
  it('sends a renewed token from the next request on, one traceparent per request, and the run headers', async () => {
    const seen: Array<{ token: string | undefined; traceparents: string[]; extra: string | undefined; agent: string | undefined }> = [];
    const server = await startServer((req, res) => {
      void readBody(req).then((body) => {
        // Every traceparent line the request carried, as sent.
        const traceparents = req.rawHeaders.filter((_, i) => i % 2 === 1 && req.rawHeaders[i - 1]?.toLowerCase() === 'traceparent');
        seen.push({
          token: req.headers.authorization,
          traceparents,
          extra: req.headers['x-extra'] as string | undefined,
          agent: req.headers['user-agent'],
        });
        sendJson(res, 200, photoAnswer(body), 'application/json', GOOD_HEADERS);
      });
    });
    try {
      const fixtures = { apiKey: 'key-1', participants: [{ userId: 'p-1', token: 'old-token', chatSessionIds: ['cs-1'] }] };
      const profile = testProfile(900, { model: 'closed', connections: 3, overrideShare: 0 }, { enabled: false });
      const total = new MetricSet();
      // A renewal replaces the token in the fixtures object (engine/auth/credentials.ts).
      const renew = setTimeout(() => {
        fixtures.participants[0]!.token = 'new-token';
      }, 400);
      await runScenarios({
        scenarios: [photoUploadScenario],
        profile,
        targetUrl: server.url,
        fixtures,
        keepAlive: { intervalMs: profile.target.keepAliveMs, toleranceMs: 1_000 },
        stop: new AbortController(),
        sink: (interval) => total.add(interval),
        intervalMs: 100,
        transport: {
          ...defaultTransport(),
          headers: { 'user-agent': 'ua-test', 'x-extra': 'e', traceparent: 'from-the-run-headers' },
          trace: { sampleRate: 1 },
        },
      });
      clearTimeout(renew);
      const summary = buildPhotoUploadSummary(total, profile.photoUpload);
      expect(summary.errors).toBe(0);
      expect(seen.length).toBeGreaterThan(30);
      // Every request: the run's headers, and exactly one traceparent, its own.
      expect(seen.filter((s) => s.extra !== 'e' || s.agent !== 'ua-test')).toEqual([]);
      expect(seen.filter((s) => s.traceparents.length !== 1 || parseTraceparent(s.traceparents[0]) === null)).toEqual([]);
      expect(new Set(seen.map((s) => s.traceparents[0])).size).toBe(seen.length);
      // The token: the old one, then (after the requests in flight at the renewal) only the new one.
      const firstNew = seen.findIndex((s) => s.token === 'Bearer new-token');
      expect(firstNew).toBeGreaterThan(0);
      expect(seen.slice(0, firstNew).every((s) => s.token === 'Bearer old-token')).toBe(true);
      expect(seen.slice(firstNew + 3).every((s) => s.token === 'Bearer new-token')).toBe(true);
      expect(seen.length - firstNew).toBeGreaterThan(10);
      // The slowest requests are kept with the trace ids they carried.
      const slowest = total.slowestOf('photoUpload');
      expect(slowest.length).toBeGreaterThan(0);
      for (const slow of slowest) expect(seen.some((s) => parseTraceparent(s.traceparents[0])?.traceId === slow.traceId)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('reads answers that arrive in pieces, on several connections at once, each whole (one shared read Buffer)', async () => {
    const server = await startServer((req, res) => {
      void readBody(req).then((body) => {
        const user = /participants\/([^/]+)\//.exec(req.url ?? '')?.[1] ?? 'p';
        // A long, per-user body sent in three writes: other connections' reads land between them.
        const text = JSON.stringify({ ...photoAnswer(body, user), note: user.repeat(400) });
        res.writeHead(200, { ...GOOD_HEADERS, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        const third = Math.floor(text.length / 3);
        res.write(text.slice(0, third));
        setTimeout(() => res.write(text.slice(third, 2 * third)), 2);
        setTimeout(() => res.end(text.slice(2 * third)), 4);
      });
    });
    try {
      const fixtures = { apiKey: 'key-1', participants: [1, 2, 3, 4].map((i) => ({ userId: `p-${i}`, token: `t-${i}`, chatSessionIds: [`cs-${i}`] })) };
      const profile = testProfile(900, { model: 'closed', connections: 4, overrideShare: 0 }, { enabled: false });
      const total = await testRun(server.url, fixtures, profile).run(photoUploadScenario);
      const summary = buildPhotoUploadSummary(total, profile.photoUpload);
      expect(summary.requests).toBeGreaterThan(40);
      // A body mixed with another connection's bytes would not parse, or would name another photo.
      expect(summary.errors).toBe(0);
      expect(checksOf(total)['photo.upload'].status).toBe('pass');
    } finally {
      await server.close();
    }
  });

  it('reads plain-TCP connections without a stream: no data listener, every answer counted', async () => {
    const server = await startServer((req, res) => {
      void readBody(req).then((body) => sendJson(res, 200, photoAnswer(body), 'application/json', GOOD_HEADERS));
    });
    const sockets: Socket[] = [];
    let answers = 0;
    try {
      await runConnections(
        {
          origin: server.url,
          connections: 2,
          timeoutMs: 5_000,
          maxBodyBytes: 1024 * 1024,
          requests: [{ method: 'PATCH', path: '/api/v1/participants/p/profile_photo', body: 'x' }],
          setupClient: () => undefined,
        },
        {
          onAnswer: (client, status, _latencyMs, answer) => {
            if (status === 200 && JSON.parse(answer.body).photoUrl !== undefined && answer.rawHeaders.includes('cache-control')) answers++;
            const conn = (client as unknown as { conn: Socket }).conn;
            if (!sockets.includes(conn)) sockets.push(conn);
          },
          onConnectionError: () => undefined,
          onTimeout: () => undefined,
          onBodyTooLarge: () => undefined,
        },
        performance.now() + 400,
        new AbortController().signal,
      );
      expect(answers).toBeGreaterThan(20);
      expect(sockets).toHaveLength(2);
      for (const socket of sockets) expect(socket.listenerCount('data')).toBe(0);
    } finally {
      await server.close();
    }
  });
});
