import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { runConnections } from '../../../src/drivers/throughput/autocannon-connections.js';
import { sharedBodiesSupported } from '../../../src/drivers/throughput/autocannon-requests.js';
import { runClosedModel } from '../../../src/drivers/throughput/closed-model.js';
import { buildImageCorpus } from '../../../src/drivers/throughput/images/image-corpus.js';
import { photoUploadScenario, probesScenario, tagLinkScenario } from '../../../src/drivers/throughput/index.js';
import { defaultPhotoBody, overridePhotoBody } from '../../../src/drivers/throughput/multipart-body.js';
import { createPhotoWorkload } from '../../../src/drivers/throughput/photo-workload.js';
import { throughputNames } from '../../../src/metrics/names.js';
import { buildPhotoUploadSummary, buildTagLinkSummary } from '../../../src/metrics/throughput-summary.js';
import { startTarget } from '../../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../../src/reference-service/target-types.js';
import { checksOf, GOOD_HEADERS, photoAnswer, readBody, sendJson, startServer, testProfile, testRun } from '../../support/throughput-helpers.js';

const fixtures = {
  apiKey: 'key-0001',
  participants: [1, 2, 3].map((i) => ({ userId: `p-${i}`, token: `token-${i}`, chatSessionIds: [`cs-${i}`] })),
};

let target: RunningTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

describe('closed model (autocannon)', () => {
  it('finds the autocannon method the shared-body path replaces (else it falls back to copying)', () => {
    expect(sharedBodiesSupported()).toBe(true);
  });

  it('records every answer into our HDR histograms with fractional-ms precision', async () => {
    let answered = 0;
    const server = await startServer((req, res) => {
      void readBody(req).then((body) =>
        setTimeout(() => {
          answered++;
          sendJson(res, 200, photoAnswer(body), 'application/json', GOOD_HEADERS);
        }, 20),
      );
    });
    try {
      const profile = testProfile(1_500, { model: 'closed', connections: 4, overrideShare: 0.5 });
      const total = await testRun(server.url, fixtures, profile).run(photoUploadScenario);
      const summary = buildPhotoUploadSummary(total, profile.photoUpload);
      expect(summary.model).toBe('closed');
      expect(summary.requestedRatePerSec).toBeNull();
      // Each of the 4 connections busy all along: as many requests as their time over the mean
      // latency (not a count, which a loaded machine's slower round trips would lower); answers
      // in flight at stop reach the server but not us.
      expect(summary.requests).toBeGreaterThan((0.8 * 4 * summary.activeSeconds * 1_000) / summary.latencyMs.mean);
      expect(answered - summary.requests).toBeGreaterThanOrEqual(0);
      expect(answered - summary.requests).toBeLessThanOrEqual(4);
      expect(total.histogram(throughputNames('photoUpload').latencyUs).totalCount).toBe(summary.requests);
      expect(summary.latencyMs.p50).toBeGreaterThanOrEqual(20);
      expect(summary.latencyMs.p50).toBeLessThan(35);
      // Sub-millisecond resolution: autocannon's hrtime reaches us unrounded.
      expect(summary.latencyMs.mean % 1).not.toBe(0);
      expect(summary.serviceTimeMs.count).toBe(summary.requests);
      expect(summary.overrideRequests).toBeGreaterThan(summary.requests * 0.4);
      // Every body and header set was checked: each answer is evidence.
      const checks = checksOf(total);
      expect(checks['photo.upload'].status).toBe('pass');
      expect(checks['photo.upload'].observed).toBe(summary.requests - summary.overrideRequests);
      expect(checks['photo.fieldname.override'].observed).toBe(summary.overrideRequests);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['shared body Buffers', true],
    ['autocannon setupRequest (copying fallback)', false],
  ])('sends exact bodies, heads and users through %s', async (_name, sharedBodies) => {
    const sha = (b: Buffer): string => createHash('sha1').update(b).digest('hex');
    const corpus = buildImageCorpus(['jpeg', 'png'], [16 * 1024, 64 * 1024]);
    const expected = new Set(corpus.flatMap((image) => [defaultPhotoBody(image), overridePhotoBody(image)]).map((b) => sha(b.body)));
    const seen = { bodies: new Set<string>(), bad: 0, users: new Set<string>() };
    const server = await startServer((req, res) => {
      void readBody(req).then((body) => {
        const user = /participants\/([^/]+)\//.exec(req.url ?? '')?.[1] ?? '';
        const tokenOk = req.headers.authorization === `Bearer token-${user.slice(2)}` && req.headers['x-api-key'] === 'key-0001';
        if (!expected.has(sha(body)) || !tokenOk || req.method !== 'PATCH' || Number(req.headers['content-length']) !== body.length) seen.bad++;
        seen.bodies.add(sha(body));
        seen.users.add(user);
        sendJson(res, 200, photoAnswer(body, user), 'application/json', GOOD_HEADERS);
      });
    });
    try {
      const profile = testProfile(800, { model: 'closed', connections: 3 });
      const run = testRun(server.url, fixtures, profile);
      const workload = createPhotoWorkload({ basePath: '/api/v1', apiKey: 'key-0001', participants: fixtures.participants, corpus, overrideShare: 0.5 });
      const total = await run.run({ name: 'closed-model', run: (ctx) => runClosedModel(ctx, profile.photoUpload, workload, { sharedBodies }) });
      const summary = buildPhotoUploadSummary(total, profile.photoUpload);
      expect(seen.bad).toBe(0);
      expect(seen.bodies).toEqual(expected);
      expect(seen.users).toEqual(new Set(['p-1', 'p-2', 'p-3']));
      expect(summary.requests).toBeGreaterThan(50);
      expect(summary.errors).toBe(0);
      expect(summary.latencyMs.count).toBe(summary.requests);
    } finally {
      await server.close();
    }
  });

  it('checks every answer: a missing header fails photo.upload under the closed model too', async () => {
    const server = await startServer((req, res) => {
      void readBody(req).then((body) => sendJson(res, 200, photoAnswer(body), 'application/json', { ...GOOD_HEADERS, 'cache-control': '' }));
    });
    try {
      const profile = testProfile(600, { model: 'closed', connections: 2, overrideShare: 0 });
      const total = await testRun(server.url, fixtures, profile).run(photoUploadScenario);
      const summary = buildPhotoUploadSummary(total, profile.photoUpload);
      expect(summary.errorsByKind['headers-missing']).toBe(summary.requests);
      expect(checksOf(total)['photo.upload'].status).toBe('fail');
    } finally {
      await server.close();
    }
  });

  it('drives tags with existing names against the reference target, and all checks hold', async () => {
    target = await startTarget({ participants: 4 });
    const profile = testProfile(1_000, { model: 'closed', connections: 2 }, { model: 'closed', connections: 2, tagsPerRequest: 4, existingShare: 0.5 });
    const total = await testRun(target.url, target.fixtures, profile).run(probesScenario, photoUploadScenario, tagLinkScenario);
    const tags = buildTagLinkSummary(total, profile.tagLink);
    expect(tags.requests).toBeGreaterThan(50);
    expect(tags.errors).toBe(0);
    expect(tags.existingReturned).toBe(0);
    const checks = checksOf(total);
    for (const id of ['photo.upload', 'photo.fieldname.override', 'tags.link', 'tags.existing.ignored', 'errors.problem_json'] as const) {
      expect(`${id}: ${checks[id].status}`, checks[id].detail).toBe(`${id}: pass`);
    }
    expect(checks['tags.existing.ignored'].observed).toBeGreaterThan(40);
  });

  it('counts a refused connection as errors, and stops on abort', async () => {
    const server = await startServer(() => undefined);
    const url = server.url;
    await server.close();
    const profile = testProfile(5_000, { model: 'closed', connections: 1, overrideShare: 0 });
    const run = testRun(url, fixtures, profile);
    setTimeout(() => run.abort(), 300);
    const started = performance.now();
    const total = await run.run(photoUploadScenario);
    expect(performance.now() - started).toBeLessThan(1_000);
    const summary = buildPhotoUploadSummary(total, profile.photoUpload);
    // autocannon reconnects at once after a refusal; each attempt is a failed request.
    expect(summary.requests).toBeGreaterThan(0);
    expect(summary.errors).toBe(summary.requests);
    expect(Object.keys(summary.errorsByKind)).toEqual(['net:ECONNREFUSED']);
  });

  it('rejects at once, with nothing left running, when a connection cannot even be attempted', async () => {
    const started = performance.now();
    const events = { onAnswer: () => undefined, onConnectionError: () => undefined, onTimeout: () => undefined, onBodyTooLarge: () => undefined };
    const attempt = runConnections(
      {
        origin: 'https://127.0.0.1:9',
        connections: 2,
        timeoutMs: 1_000,
        maxBodyBytes: 1024,
        requests: [{}],
        setupClient: () => undefined,
        tlsOptions: { key: 'not a key', cert: 'not a cert' },
      },
      events,
      performance.now() + 5_000,
      new AbortController().signal,
    );
    await expect(attempt).rejects.toThrow();
    // Not at the 5 s deadline: the deadline's timer was cleared with the connections.
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('counts a connection without an answer within the timeout as timeout:response, reconnects, and stops at the deadline', async () => {
    let accepted = 0;
    const server = await startServer((req) => {
      accepted++;
      req.resume();
    });
    try {
      // 2 connections × a 300 ms timeout over 1 s: each times out 3 times, reconnecting each time.
      const profile = testProfile(1_000, { model: 'closed', connections: 2, overrideShare: 0, timeout: '300ms' });
      const started = performance.now();
      const total = await testRun(server.url, fixtures, profile).run(photoUploadScenario);
      const elapsedMs = performance.now() - started;
      const summary = buildPhotoUploadSummary(total, profile.photoUpload);
      expect(Object.keys(summary.errorsByKind)).toEqual(['timeout:response']);
      expect(summary.errors).toBe(summary.requests);
      expect(summary.errors).toBeGreaterThanOrEqual(4);
      expect(summary.errors).toBeLessThanOrEqual(6);
      // Every timeout reconnected and sent the next request on a new connection.
      expect(accepted).toBeGreaterThanOrEqual(summary.errors + 2);
      expect(total.samplesOf('photoUpload').join('\n')).toMatch(/no answer within 300 ms/);
      // The connections are destroyed at the deadline, not at a later poll or a whole timeout later.
      expect(elapsedMs).toBeLessThan(1_400);
    } finally {
      await server.close();
    }
  });
});
