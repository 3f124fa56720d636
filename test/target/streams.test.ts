import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningTarget } from '../../src/target/target-types.js';
import { FIVE_HEADERS, SLACK_MS, call, eventually, openStream, participant, startTestTarget } from './helpers.js';

const KEEPALIVE_MS = 150;
let target: RunningTarget;

beforeAll(async () => {
  target = await startTestTarget({ keepAliveMs: KEEPALIVE_MS });
});
afterAll(() => target.close());

describe('chat-session stream', () => {
  it('opens with 200, text/event-stream, no-cache and the five headers, flushed before any frame', async () => {
    const p = participant(target);
    const stream = await openStream(target, `/participants/${p.userId}/chat_sessions/${p.chatSessionIds[0]}/stream`, p.token);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream');
      expect(stream.headers['cache-control']).toBe('no-cache');
      for (const name of FIVE_HEADERS) expect(stream.headers[name], name).toBeTruthy();
      // Headers arrive well before the first KEEP_ALIVE is due, and nothing precedes it.
      expect(stream.headersAtMs - stream.requestedAtMs).toBeLessThan(KEEPALIVE_MS / 2);
      expect(stream.frames).toHaveLength(0);
      await stream.waitFor((f) => f.length >= 1);
      expect(stream.frames[0]?.data).toBe('{"eventType":"KEEP_ALIVE","payload":null}');
    } finally {
      stream.close();
    }
  });

  it('sends KEEP_ALIVE at the interval: first one interval after open, then every interval', async () => {
    const p = participant(target, 1);
    const streams = await Promise.all(
      p.chatSessionIds.map((id) => openStream(target, `/participants/${p.userId}/chat_sessions/${id}/stream`, p.token)),
    );
    try {
      await Promise.all(streams.map((s) => s.waitFor((f) => f.length >= 6, 3_000)));
      for (const stream of streams) {
        const times = stream.keepAlives().map((f) => f.atMs);
        const first = (times[0] as number) - stream.headersAtMs;
        expect(first).toBeGreaterThan(KEEPALIVE_MS - SLACK_MS);
        expect(first).toBeLessThan(KEEPALIVE_MS + SLACK_MS);
        for (let i = 1; i < times.length; i += 1) {
          const gap = (times[i] as number) - (times[i - 1] as number);
          expect(gap).toBeGreaterThan(KEEPALIVE_MS - SLACK_MS);
          expect(gap).toBeLessThan(KEEPALIVE_MS + SLACK_MS);
        }
        expect(stream.events()).toHaveLength(0);
      }
      const late = target.stats().keepAliveLateMs;
      expect(late?.count).toBeGreaterThanOrEqual(15);
      expect(late?.p50).toBeLessThan(5);
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('delivers MESSAGE_SENT exactly once to every stream of the session, nothing to other sessions', async () => {
    const p = participant(target, 2);
    const [sessionA, sessionB] = p.chatSessionIds as [string, string];
    const base = `/participants/${p.userId}/chat_sessions`;
    const a1 = await openStream(target, `${base}/${sessionA}/stream`, p.token);
    const a2 = await openStream(target, `${base}/${sessionA}/stream`, target.fixtures.coachToken);
    const b = await openStream(target, `${base}/${sessionB}/stream`, p.token);
    const main = await openStream(target, `/participants/${p.userId}/stream`, p.token);
    try {
      const sent = await call(target, 'POST', `/participants/${p.userId}/chat_messages`, { token: p.token, json: { chatSessionId: sessionA, text: 'hello #1' } });
      expect(sent.status).toBe(201);
      const message = sent.body as Record<string, unknown>;
      expect(message).toMatchObject({ chatSessionId: sessionA, senderId: p.userId, senderType: 'participant', text: 'hello #1' });
      expect(typeof message.id).toBe('string');
      expect(Number.isNaN(Date.parse(message.sentAt as string))).toBe(false);
      // Written before the 201 was sent: already in flight when the answer arrives.
      for (const s of [a1, a2, main]) await s.waitFor((f) => f.some((x) => x.json?.eventType === 'MESSAGE_SENT'), 1_000);
      for (const s of [a1, a2, main]) {
        const events = s.events();
        expect(events).toHaveLength(1);
        expect(events[0]?.json).toEqual({ eventType: 'MESSAGE_SENT', payload: [message] });
      }
      // Let a KEEP_ALIVE pass on b to be sure nothing else was queued for it.
      await b.waitFor((f) => f.length >= 1);
      expect(b.events()).toHaveLength(0);
    } finally {
      for (const s of [a1, a2, b, main]) s.close();
    }
  });

  it('main stream gets KEEP_ALIVE on the same cadence', async () => {
    const p = participant(target, 3);
    const main = await openStream(target, `/participants/${p.userId}/stream`, p.token);
    try {
      expect(main.status).toBe(200);
      expect(main.headers['content-type']).toBe('text/event-stream');
      await main.waitFor((f) => f.length >= 2);
      const [k1, k2] = main.keepAlives().map((f) => f.atMs) as [number, number];
      expect(k2 - k1).toBeGreaterThan(KEEPALIVE_MS - SLACK_MS);
      expect(k2 - k1).toBeLessThan(KEEPALIVE_MS + SLACK_MS);
    } finally {
      main.close();
    }
  });

  it('counts open streams and frees them when clients close', async () => {
    const p = participant(target, 4);
    const chat = await openStream(target, `/participants/${p.userId}/chat_sessions/${p.chatSessionIds[0]}/stream`, p.token);
    const main = await openStream(target, `/participants/${p.userId}/stream`, p.token);
    expect(target.stats()).toMatchObject({ openStreams: 2, openChatStreams: 1, openMainStreams: 1 });
    expect(target.stats().streamHandles).toBeGreaterThan(0);
    chat.close();
    main.close();
    expect(await eventually(() => target.stats().openStreams === 0 && target.stats().streamHandles === 0)).toBe(true);
  });

  it('refuses a session of another participant and an unknown session with 404', async () => {
    const p = participant(target, 0);
    const other = participant(target, 1);
    const foreign = await call(target, 'GET', `/participants/${p.userId}/chat_sessions/${other.chatSessionIds[0]}/stream`, { token: p.token });
    expect(foreign.status).toBe(404);
    const unknown = await call(target, 'GET', `/participants/${p.userId}/chat_sessions/cs-nope/stream`, { token: p.token });
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});
