import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { type CallResult, call, FIVE_HEADERS, participant, problemOf, startTestTarget } from '../support/target-helpers.js';

let target: RunningTarget;
beforeAll(async () => {
  target = await startTestTarget();
});
afterAll(() => target.close());

function expectProblem(result: CallResult, status: number, instance: string): void {
  expect(result.status).toBe(status);
  expect(result.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = problemOf(result);
  expect(problem.status).toBe(status);
  expect(problem.instance).toBe(instance);
  expect(problem.type).toMatch(/^urn:coachbench:problem:/);
  expect(problem.title.length).toBeGreaterThan(0);
  expect(problem.detail.length).toBeGreaterThan(0);
  for (const name of FIVE_HEADERS) expect(result.headers[name], name).toBeTruthy();
  // Neither secret is ever echoed back.
  expect(result.text).not.toContain(target.fixtures.apiKey);
  expect(result.text).not.toContain(target.fixtures.coachToken);
}

describe('auth', () => {
  const path = () => `/participants/${participant(target).userId}/chat_sessions/${participant(target).chatSessionIds[0]}`;

  it.each([
    ['a missing X-API-Key', { apiKey: null }, /X-API-Key header is missing/],
    ['a wrong X-API-Key', { apiKey: 'ak_wrong' }, /X-API-Key header is not valid/],
    ['a missing bearer token', { token: null }, /Authorization header is missing/],
    ['an unknown bearer token', { token: 'pt_unknown' }, /bearer token is not valid/],
    ['a non-Bearer Authorization', { token: null, headers: { authorization: 'Basic abc' } }, /not a Bearer token/],
  ])('refuses %s with 401 problem+json', async (_what, options, detail) => {
    const result = await call(target, 'GET', path(), options);
    expectProblem(result, 401, `/api/v1${path()}`);
    expect(problemOf(result).detail).toMatch(detail);
    expect(result.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('checks the API key before the token (missing key with a valid token is 401)', async () => {
    const result = await call(target, 'GET', path(), { apiKey: null, token: participant(target).token });
    expect(result.status).toBe(401);
  });

  it('lets the participant, a coach and a connector read the participant path', async () => {
    for (const token of [participant(target).token, target.fixtures.coachToken, target.connectorToken as string]) {
      const result = await call(target, 'GET', path(), { token });
      expect(result.status).toBe(200);
      for (const name of FIVE_HEADERS) expect(result.headers[name], name).toBeTruthy();
    }
  });

  it("refuses another participant's path with 403, even for a stream", async () => {
    const other = participant(target, 1);
    const result = await call(target, 'GET', path(), { token: other.token });
    expectProblem(result, 403, `/api/v1${path()}`);
    const stream = await call(target, 'GET', `${path()}/stream`, { token: other.token });
    expect(stream.status).toBe(403);
  });

  it.each([
    ['POST', '/admin/tags/new_and_link/participant'],
    ['POST', '/tags'],
    ['PUT', '/tags/link/participant'],
    ['POST', '/participants'],
    ['POST', '/admin/participants'],
  ] as const)('refuses a participant token on %s %s with 403 (wrong role)', async (method, route) => {
    const result = await call(target, method, route, { token: participant(target).token, json: {} });
    expectProblem(result, 403, `/api/v1${route}`);
    expect(problemOf(result).detail).toMatch(/coach, connector/);
  });
});

describe('errors and preflight', () => {
  it('answers OPTIONS preflight with 204 and the five headers, without credentials', async () => {
    const result = await call(target, 'OPTIONS', '/admin/tags/new_and_link/participant', { apiKey: null, token: null });
    expect(result.status).toBe(204);
    expect(result.text).toBe('');
    for (const name of FIVE_HEADERS) expect(result.headers[name], name).toBeTruthy();
    expect(result.headers['access-control-allow-headers']).toMatch(/X-API-Key/i);
    expect(result.headers['access-control-allow-headers']).toMatch(/Authorization/i);
    expect(result.headers['access-control-allow-methods']).toMatch(/PATCH/);
  });

  it('answers unknown paths with 404 problem+json, inside and outside /api/v1', async () => {
    expectProblem(await call(target, 'GET', '/no/such/thing'), 404, '/api/v1/no/such/thing');
    const outside = await call(target, 'GET', '/../../etc/passwd');
    expect(outside.status).toBe(404);
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const result = await call(target, 'DELETE', '/tags');
    expectProblem(result, 405, '/api/v1/tags');
    expect(result.headers.allow).toBe('POST');
  });

  it('answers malformed JSON, a wrong content type, a missing body and a bad field with problem+json', async () => {
    const p = participant(target);
    const route = `/participants/${p.userId}/chat_messages`;
    const malformed = await call(target, 'POST', route, { token: p.token, body: '{"chatSessionId":', headers: { 'content-type': 'application/json' } });
    expectProblem(malformed, 400, `/api/v1${route}`);
    expect(problemOf(malformed).detail).toMatch(/not valid JSON/);
    const wrongType = await call(target, 'POST', route, { token: p.token, body: 'text=hi', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expectProblem(wrongType, 415, `/api/v1${route}`);
    expectProblem(await call(target, 'POST', route, { token: p.token }), 400, `/api/v1${route}`);
    const badField = await call(target, 'POST', route, { token: p.token, json: { chatSessionId: p.chatSessionIds[0], text: 42 } });
    expectProblem(badField, 400, `/api/v1${route}`);
    expect(problemOf(badField).detail).toMatch(/"text"/);
    const array = await call(target, 'POST', route, { token: p.token, json: [1, 2] });
    expectProblem(array, 400, `/api/v1${route}`);
  });

  it('refuses a JSON body over 1 MiB with 413', async () => {
    const p = participant(target);
    const route = `/participants/${p.userId}/chat_messages`;
    const huge = await call(target, 'POST', route, { token: p.token, json: { chatSessionId: p.chatSessionIds[0], text: 'x'.repeat(1_100_000) } });
    expectProblem(huge, 413, `/api/v1${route}`);
  });
});
