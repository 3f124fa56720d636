/**
 * The requests a request kind's templates build (docs/design.md §2.15): values from the
 * fixtures and generated ones, escaped for where they go, with the kind's credential, and
 * multipart parts as a real form. Pure: no request is sent here.
 */
import { describe, expect, it } from 'vitest';
import type { RequestTemplate } from '../../../src/contract/profile/profile.js';
import { requestBuilder } from '../../../src/drivers/requests/request-builder.js';
import type { RunFixtures } from '../../../src/engine/scenario.js';

const fixtures: RunFixtures = {
  apiKey: 'ak_1',
  coachToken: 'ct_1',
  participants: [
    { userId: 'p-000041', token: 'pt_a', chatSessionIds: ['cs-41-1', 'cs-41-2'] },
    { userId: 'p 42/x', token: 'pt_b', chatSessionIds: ['cs-42-1'] },
  ],
};
const context = { basePath: '/api/v1', fixtures, captured: new Map([['tagId', 't-000007']]), runTag: 'ab12', name: 'k' };
const template = (overrides: Partial<RequestTemplate>): RequestTemplate => ({
  method: 'POST',
  path: '/x',
  headers: {},
  body: null,
  credential: 'participant',
  ...overrides,
});

describe('requestBuilder', () => {
  it('spreads requests over participants and their sessions, URL-encoding path values', () => {
    const build = requestBuilder(template({ method: 'GET', path: '/participants/{userId}/chat_sessions/{sessionId}' }), context);
    expect([0, 1, 2, 3, 4].map((seq) => build(seq).path)).toEqual([
      '/api/v1/participants/p-000041/chat_sessions/cs-41-1',
      '/api/v1/participants/p%2042%2Fx/chat_sessions/cs-42-1',
      '/api/v1/participants/p-000041/chat_sessions/cs-41-2',
      '/api/v1/participants/p%2042%2Fx/chat_sessions/cs-42-1',
      '/api/v1/participants/p-000041/chat_sessions/cs-41-1',
    ]);
    expect(build(0).headers).toMatchObject({ authorization: 'Bearer pt_a', 'x-api-key': 'ak_1' });
  });

  it('fills a JSON body, generated values and setup captures included, and keeps it JSON', () => {
    const body = { json: '{"participantId":"{userId}","tagIds":["{setup.tagId}"],"name":"{unique}","n":{seq},"card":"apc-{userNumber}-1-1"}' };
    const spec = requestBuilder(template({ body, credential: 'coach', headers: { 'x-note': 'for {userId}' } }), context)(2);
    expect(JSON.parse(spec.body as string)).toEqual({ participantId: 'p-000041', tagIds: ['t-000007'], name: 'cb-ab12-k-2', n: 2, card: 'apc-000041-1-1' });
    expect(spec.headers).toMatchObject({ authorization: 'Bearer ct_1', 'content-type': 'application/json', 'x-note': 'for p-000041' });
  });

  it('sends no bearer token for apiKeyOnly', () => {
    const spec = requestBuilder(template({ credential: 'apiKeyOnly' }), context)(0);
    expect(spec.headers.authorization).toBeUndefined();
    expect(spec.headers['x-api-key']).toBe('ak_1');
  });

  it('builds multipart parts as one form with its boundary', () => {
    const body = {
      multipart: [
        { name: 'note', value: 'hello {userId}' },
        { name: 'file', value: 'x', filename: 'a.txt', contentType: 'text/plain' },
      ],
    };
    const spec = requestBuilder(template({ method: 'PATCH', body }), context)(0);
    const boundary = /boundary=(.+)$/.exec(spec.headers['content-type'] ?? '')?.[1];
    expect(boundary).toBeDefined();
    const text = (spec.body as Buffer).toString('utf8');
    expect(text).toContain(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello p-000041\r\n`);
    expect(text).toContain('Content-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nx\r\n');
    expect(text.endsWith(`--${boundary}--\r\n`)).toBe(true);
  });
});
