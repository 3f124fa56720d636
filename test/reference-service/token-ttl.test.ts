/**
 * Expiring tokens in the reference target (serve --token-ttl, docs/target.md "Expiring
 * tokens"): a token is refused with RFC 6750's invalid_token once its time is up, and
 * POST /_coachbench/tokens with the API key issues a fresh one for every principal.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssuedTokens } from '../../src/reference-service/http/token-issuer.js';
import { resolveServeOptions } from '../../src/reference-service/serve-main.js';
import { startTarget } from '../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { ConfigError } from '../../src/util/errors.js';
import { call, participant, problemOf, startTestTarget } from '../support/target-helpers.js';

const TTL_MS = 1_500;
let target: RunningTarget;

beforeAll(async () => {
  target = await startTestTarget({ tokenTtlMs: TTL_MS });
});
afterAll(() => target.close());

async function issue(apiKey: string | null, method = 'POST'): Promise<{ status: number; body: unknown; headers: Record<string, unknown> }> {
  const answer = await request(`${target.url}/_coachbench/tokens`, { method, headers: apiKey === null ? {} : { 'x-api-key': apiKey } });
  const text = await answer.body.text();
  return { status: answer.statusCode, body: text ? JSON.parse(text) : null, headers: answer.headers };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('serve --token-ttl', () => {
  it('accepts a token until its time is up, then refuses it with invalid_token; new tokens work and the old expire on their own clock', async () => {
    const me = participant(target);
    expect((await call(target, 'GET', `/participants/${me.userId}`, { token: me.token })).status).toBe(200);
    const fresh = (await issue(target.fixtures.apiKey)).body as IssuedTokens;
    expect(fresh.participants[me.userId]).toMatch(/^pt_[0-9a-f]{32}$/);
    expect(fresh.coachToken).toMatch(/^ct_[0-9a-f]{32}$/);
    expect(fresh.connectorToken).toMatch(/^kt_[0-9a-f]{32}$/);
    expect(Object.keys(fresh.participants)).toHaveLength(target.fixtures.participants.length);
    // Issuing new tokens does not revoke the old ones: a client switches when it likes.
    expect((await call(target, 'GET', `/participants/${me.userId}`, { token: me.token })).status).toBe(200);

    await sleep(TTL_MS + 100);
    const expired = await call(target, 'GET', `/participants/${me.userId}`, { token: me.token });
    expect(expired.status).toBe(401);
    expect(expired.headers['www-authenticate']).toBe('Bearer realm="coachbench", error="invalid_token", error_description="the token expired"');
    expect(problemOf(expired).detail).toBe('the bearer token expired');
    expect(expired.text).not.toContain(me.token);
    // The fresh token was issued ~TTL ago too: a new one, then, for the coach.
    const again = (await issue(target.fixtures.apiKey)).body as IssuedTokens;
    expect((await call(target, 'GET', `/participants/${me.userId}`, { token: again.participants[me.userId]! })).status).toBe(200);
    expect((await call(target, 'GET', `/participants/${me.userId}`, { token: again.coachToken })).status).toBe(200);
    expect(again.participants[me.userId]).not.toBe(fresh.participants[me.userId]);
  });

  it('issues tokens only with the API key, and only on POST', async () => {
    const missing = await issue(null);
    expect(missing.status).toBe(401);
    expect((missing.body as { detail: string }).detail).toBe('the X-API-Key header is missing');
    expect((await issue('ak_wrong')).status).toBe(401);
    const get = await issue(target.fixtures.apiKey, 'GET');
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
  });

  it('has no token endpoint when tokens do not expire', async () => {
    const plain = await startTestTarget();
    try {
      const answer = await request(`${plain.url}/_coachbench/tokens`, { method: 'POST', headers: { 'x-api-key': plain.fixtures.apiKey } });
      await answer.body.dump();
      expect(answer.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('refuses what it cannot honour', async () => {
    await expect(startTarget({ tokenTtlMs: 5_000, workers: 2 })).rejects.toThrow('expiring tokens (--token-ttl) need a single-process target: drop --workers');
    await expect(startTarget({ tokenTtlMs: 10 })).rejects.toThrow(ConfigError);
    expect(resolveServeOptions({ tokenTtl: '30s' }).options.tokenTtlMs).toBe(30_000);
    expect(() => resolveServeOptions({ tokenTtl: '10ms' })).toThrow('--token-ttl: at least 1s, got 10ms');
    expect(() => resolveServeOptions({ tokenTtl: 'soon' })).toThrow(ConfigError);
  });
});
