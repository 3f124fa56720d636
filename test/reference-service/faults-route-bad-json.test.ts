/**
 * `bad-json=PCT on METHOD /path` (docs/target.md "Faults"): that share of one route's answers
 * are complete HTTP answers (status, headers, a Content-Length that frames them) whose body
 * is cut short, no longer JSON; other routes, auth refusals and streams are untouched. Under
 * `workers` each worker decides for itself.
 */
import { Client } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startTarget } from '../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { runBin } from '../support/bin-helpers.js';
import { API, type CallResult, call, FIVE_HEADERS, openStream, participant, startTestTarget } from '../support/target-helpers.js';
import { workerOf } from '../support/target-workers.js';

const SESSION_ROUTE = 'GET /participants/{user_id}/chat_sessions/{id}';

let target: RunningTarget | null = null;
afterEach(async () => {
  await target?.close();
  target = null;
});

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** A cut answer: its body is there in full (Content-Length counts it), starts as JSON and does not parse. */
function expectCut(result: CallResult): void {
  expect(result.text.length).toBeGreaterThan(0);
  expect(result.text.startsWith('{') || result.text.startsWith('['), result.text).toBe(true);
  expect(parses(result.text), result.text).toBe(false);
  expect(Number(result.headers['content-length'])).toBe(Buffer.byteLength(result.text));
}

describe('bad-json=PCT on METHOD /path', () => {
  it("at 100% cuts every answer of that route short, keeping status and headers; other routes' answers stay JSON", async () => {
    target = await startTestTarget({ participants: 3, faults: [`bad-json=100 on ${SESSION_ROUTE}`] });
    const p = participant(target);
    const sessionPath = `/participants/${p.userId}/chat_sessions/${p.chatSessionIds[0]}`;
    const cut = await call(target, 'GET', sessionPath, { token: p.token });
    expect(cut.status).toBe(200);
    expect(cut.headers['content-type']).toBe('application/json; charset=utf-8');
    for (const name of FIVE_HEADERS) expect(cut.headers[name], name).toBeTruthy();
    expectCut(cut);
    // The handler's own refusal on that route is a body too: cut, its status and media type kept.
    const missing = await call(target, 'GET', `/participants/${p.userId}/chat_sessions/no-such-session`, { token: p.token });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    expectCut(missing);
    // Auth comes first, as for error-rate: a refusal of auth on the route stays whole.
    const refused = await call(target, 'GET', sessionPath, { token: null });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ status: 401 });
    // Other routes, the participant's sessions search and the participant itself, are untouched.
    for (const result of [
      await call(target, 'POST', `/participants/${p.userId}/chat_sessions/search`, { token: p.token, json: { limit: 2 } }),
      await call(target, 'GET', `/participants/${p.userId}`),
    ]) {
      expect(result.status).toBe(200);
      expect(parses(result.text), result.text).toBe(true);
    }
  });

  it('frames each cut answer by its Content-Length: the next answer on the same connection is whole', async () => {
    target = await startTestTarget({ participants: 2, faults: [`bad-json=100 on ${SESSION_ROUTE}`] });
    const p = participant(target);
    const client = new Client(target.url, { pipelining: 1 });
    try {
      const headers = { 'x-api-key': target.fixtures.apiKey, authorization: `Bearer ${p.token}` };
      const first = await client.request({ method: 'GET', path: `${API}/participants/${p.userId}/chat_sessions/${p.chatSessionIds[0]}`, headers });
      const firstText = await first.body.text();
      const second = await client.request({ method: 'GET', path: `${API}/participants/${p.userId}`, headers });
      const secondText = await second.body.text();
      expect(first.statusCode).toBe(200);
      expect(parses(firstText)).toBe(false);
      expect(Number(first.headers['content-length'])).toBe(Buffer.byteLength(firstText));
      expect(second.statusCode).toBe(200);
      expect(JSON.parse(secondText)).toMatchObject({ userId: p.userId });
    } finally {
      await client.close();
    }
  });

  it('cuts the answer over h2c as over HTTP/1.1: the stream ends at its Content-Length and the next answer is whole', async () => {
    target = await startTarget({ participants: 2, http2: true, faults: [`bad-json=100 on ${SESSION_ROUTE}`] });
    const p = participant(target);
    const client = new Client(target.url, { allowH2: true, h2Options: { useH2c: true } });
    try {
      const headers = { 'x-api-key': target.fixtures.apiKey, authorization: `Bearer ${p.token}` };
      const cut = await client.request({ method: 'GET', path: `${API}/participants/${p.userId}/chat_sessions/${p.chatSessionIds[0]}`, headers });
      const cutText = await cut.body.text();
      const whole = await client.request({ method: 'GET', path: `${API}/participants/${p.userId}`, headers });
      expect(cut.statusCode).toBe(200);
      expect(cutText.length).toBeGreaterThan(0);
      expect(parses(cutText), cutText).toBe(false);
      expect(Number(cut.headers['content-length'])).toBe(Buffer.byteLength(cutText));
      expect(whole.statusCode).toBe(200);
      expect(JSON.parse(await whole.body.text())).toMatchObject({ userId: p.userId });
    } finally {
      await client.close();
    }
  });

  it('at 50% cuts about half of the answers, each answer whole or cut', async () => {
    target = await startTestTarget({ participants: 2, faults: ['bad-json=50 on POST /participants/{user_id}/chat_sessions/search'] });
    const p = participant(target);
    const results = await Promise.all(
      Array.from({ length: 80 }, () =>
        call(target as RunningTarget, 'POST', `/participants/${p.userId}/chat_sessions/search`, { token: p.token, json: { limit: 2 } }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const cut = results.filter((r) => !parses(r.text));
    for (const result of cut) expectCut(result);
    expect(cut.length).toBeGreaterThan(15);
    expect(cut.length).toBeLessThan(65);
  });

  it('leaves the streams of the target alone (the unscoped bad-json is their fault)', async () => {
    target = await startTestTarget({ participants: 2, keepAliveMs: 100, faults: [`bad-json=100 on ${SESSION_ROUTE}`] });
    const p = participant(target);
    const stream = await openStream(target, `/participants/${p.userId}/chat_sessions/${p.chatSessionIds[0]}/stream`, p.token);
    try {
      await stream.waitFor((frames) => frames.length >= 3, 2_000);
      for (const frame of stream.frames) expect(frame.json, frame.data).not.toBeNull();
    } finally {
      stream.close();
    }
  });
});

describe('bad-json=PCT on METHOD /path under workers', () => {
  it('each worker cuts the answers of the route it takes', async () => {
    target = await startTarget({ workers: 2, participants: 2, faults: [`bad-json=100 on ${SESSION_ROUTE}`] });
    const p = participant(target);
    const headers = { 'x-api-key': target.fixtures.apiKey, authorization: `Bearer ${p.token}` };
    const seen = new Map<number, string>();
    // Connections go round-robin: a few fresh ones reach both workers.
    for (let attempt = 0; attempt < 20 && seen.size < 2; attempt += 1) {
      const client = new Client(target.url);
      try {
        const res = await client.request({ method: 'GET', path: `${API}/participants/${p.userId}/chat_sessions/${p.chatSessionIds[0]}`, headers });
        seen.set(workerOf(res.headers), await res.body.text());
      } finally {
        await client.close();
      }
    }
    expect([...seen.keys()].sort()).toEqual([1, 2]);
    for (const [worker, text] of seen) expect(parses(text), `worker ${worker}: ${text}`).toBe(false);
  });
});

describe('coachbench serve --fault "bad-json=PCT on METHOD /path" (bin/, built dist/)', () => {
  it.each([
    [
      'bad-json=5 on GET /participants/{user_id}/stream',
      '--fault bad-json on GET /participants/:/stream: a stream route answers with SSE frames, not a JSON body',
    ],
    ['bad-json=5 on GET /nowhere', '--fault bad-json on GET /nowhere: the reference service serves no such route'],
    ['bad-json=101 on POST /tags', '--fault bad-json=101 on POST /tags: percentage must be 0..100'],
  ])(
    'refuses %s: exit 2, one line',
    async (fault, message) => {
      const result = await runBin(['serve', '--port', '0', '--fault', fault], { deadlineMs: 20_000 });
      expect(result.code, result.stderr).toBe(2);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(message);
    },
    30_000,
  );
});
