/**
 * A request's `timeout` bounds the whole exchange, from the send to the last byte
 * (docs/design.md §6, "Request timeout"), against a node:http target that sends its headers
 * and then trickles the body faster than undici's idle body timer can notice. Without the
 * bound such an exchange stays in flight until the run ends: the open model's `maxInFlight`
 * fills and every later slot is dropped.
 */
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SWEEP_MS, sweepPeriodFor } from '../../../src/drivers/throughput/exchanges-under-way.js';
import { exchange, exchangesUnderWay, type HttpRequestSpec } from '../../../src/drivers/throughput/http-exchange.js';
import { photoUploadScenario, tagLinkScenario } from '../../../src/drivers/throughput/index.js';
import { cutAtEndName } from '../../../src/metrics/throughput-extra-names.js';
import { buildPhotoUploadSummary, buildTagLinkSummary } from '../../../src/metrics/throughput-summary.js';
import { GOOD_HEADERS, startServer, type TestServer, testProfile, testRun } from '../../support/throughput-helpers.js';

/** What a loaded 2-core machine may add to a timer. */
const SLACK_MS = 400;
const TIMEOUT_MS = 600;
/** Past this the exchange is held by something other than its timeout: the test's own cut ends it. */
const GIVE_UP_MS = 4_000;

const fixtures = {
  apiKey: 'key-0001',
  coachToken: 'coach-0001',
  participants: [1, 2].map((i) => ({ userId: `p-${i}`, token: `token-${i}`, chatSessionIds: [`cs-${i}`] })),
};

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** 200 with its headers now, then one byte of JSON every 100 ms until the client goes away. */
function trickle(res: ServerResponse): void {
  res.writeHead(200, { ...GOOD_HEADERS, 'content-type': 'application/json' });
  res.flushHeaders();
  const timer = setInterval(() => res.write(' '), 100);
  res.on('close', () => clearInterval(timer));
}

const spec: HttpRequestSpec = { method: 'GET', path: '/api/v1/anything', headers: {}, body: '' };

describe('a request timeout bounds the whole exchange', () => {
  it('a body that trickles fails as timeout:body within the timeout and one sweep, and the sweep then stops', async () => {
    server = await startServer((_req, res) => trickle(res));
    const pool = new Pool(server.url);
    const cut = AbortSignal.timeout(GIVE_UP_MS);
    try {
      const result = await exchange(pool, server.url, spec, TIMEOUT_MS, cut);
      expect(result.ok, JSON.stringify(result)).toBe(false);
      if (result.ok) return;
      expect(result.failure, result.detail).toBe('timeout:body');
      expect(result.detail).toMatch(/the body was still arriving 600 ms after the request was sent/);
      const tookMs = result.endMs - result.startMs;
      expect(tookMs).toBeGreaterThanOrEqual(TIMEOUT_MS);
      expect(tookMs).toBeLessThan(TIMEOUT_MS + sweepPeriodFor(TIMEOUT_MS) + SLACK_MS);
      // Nothing left under way: the sweep stops by itself, at its next tick.
      expect(exchangesUnderWay(cut).live).toBe(0);
      const stopBy = performance.now() + MAX_SWEEP_MS + SLACK_MS;
      while (exchangesUnderWay(cut).sweeping && performance.now() < stopBy) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(exchangesUnderWay(cut).sweeping).toBe(false);
    } finally {
      await pool.destroy();
    }
  });

  it('counts from the send: a request that waited for a connection past its deadline fails as timeout:headers', async () => {
    server = await startServer((_req, res) => trickle(res));
    // One connection: the second request waits behind the first, which trickles.
    const pool = new Pool(server.url, { connections: 1, pipelining: 1 });
    const cut = AbortSignal.timeout(GIVE_UP_MS);
    try {
      const [first, second] = await Promise.all([exchange(pool, server.url, spec, TIMEOUT_MS, cut), exchange(pool, server.url, spec, TIMEOUT_MS, cut)]);
      expect(first.ok ? 'answered' : first.failure).toBe('timeout:body');
      expect(second.ok ? 'answered' : second.failure, second.ok ? '' : second.detail).toBe('timeout:headers');
      expect(second.endMs - second.startMs).toBeLessThan(TIMEOUT_MS + sweepPeriodFor(TIMEOUT_MS) + SLACK_MS);
    } finally {
      await pool.destroy();
    }
  });

  it('open model: trickled answers free their maxInFlight places at the timeout instead of holding them to the end', async () => {
    server = await startServer((_req, res) => trickle(res));
    const timeout = `${TIMEOUT_MS}ms`;
    const profile = testProfile(3_000, { ratePerSec: 20, maxInFlight: 3, timeout }, { ratePerSec: 20, maxInFlight: 3, timeout });
    const total = await testRun(server.url, fixtures, profile).run(photoUploadScenario, tagLinkScenario);
    const photo = buildPhotoUploadSummary(total, profile.photoUpload);
    const tags = buildTagLinkSummary(total, profile.tagLink);
    for (const [name, summary] of [
      ['photoUpload', photo],
      ['tagLink', tags],
    ] as const) {
      const timedOut = summary.errorsByKind['timeout:body'] ?? 0;
      // 3 places, each freed within about 0.75 s, for most of 3 s: held to the end, none would time out.
      expect(timedOut, `${name}: ${JSON.stringify(summary)}`).toBeGreaterThanOrEqual(6);
      expect(summary.requests).toBe(summary.errors);
      // What the end of the run cut was started in its last timeout, at most one per place.
      expect(total.count(cutAtEndName(name))).toBeLessThanOrEqual(3);
    }
  }, 20_000);
});
