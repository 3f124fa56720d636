import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { call, eventually, expectCadence, FIVE_HEADERS, openStream, participant, SLACK_MS, startTestTarget } from '../support/target-helpers.js';

const KEEPALIVE_MS = 150;
let target: RunningTarget;

beforeAll(async () => {
  target = await startTestTarget({ keepAliveMs: KEEPALIVE_MS });
});
afterAll(() => target.close());

describe('chat-session stream', () => {
  it('opens with 200, text/event-stream, no-cache and the five headers, flushed before any frame', async () => {
    // A long interval separates "headers flushed at once" from "headers held until a frame".
    const slow = await startTestTarget({ keepAliveMs: 600 });
    const p = participant(slow);
    const stream = await openStream(slow, `/participants/${p.userId}/chat_sessions/${p.chatSessionIds[0]}/stream`, p.token);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream');
      expect(stream.headers['cache-control']).toBe('no-cache');
      for (const name of FIVE_HEADERS) expect(stream.headers[name], name).toBeTruthy();
      // Headers arrive long before the first KEEP_ALIVE is due, and nothing precedes it.
      expect(stream.headersAtMs - stream.requestedAtMs).toBeLessThan(300);
      await stream.waitFor((f) => f.length >= 1, 2_000);
      expect(stream.frames[0]?.data).toBe('{"eventType":"KEEP_ALIVE","payload":null}');
      expect((stream.frames[0]?.atMs as number) - stream.requestedAtMs).toBeGreaterThanOrEqual(599);
    } finally {
      stream.close();
      await slow.close();
    }
  });

  it('sends KEEP_ALIVE at the interval: first one interval after open, then every interval', async () => {
    const p = participant(target, 1);
    const streams = await Promise.all(p.chatSessionIds.map((id) => openStream(target, `/participants/${p.userId}/chat_sessions/${id}/stream`, p.token)));
    try {
      // Eight gaps a stream: enough that a scheduling hiccup (one gap stretched, the next cut short) moves no median.
      await Promise.all(streams.map((s) => s.waitFor((f) => f.length >= 9, 3_000)));
      const firsts: number[] = [];
      for (const stream of streams) {
        const times = stream.keepAlives().map((f) => f.atMs);
        firsts.push((times[0] as number) - stream.headersAtMs);
        expectCadence(
          times.slice(1).map((t, i) => t - (times[i] as number)),
          KEEPALIVE_MS,
        );
        expect(stream.events()).toHaveLength(0);
      }
      // The first KEEP_ALIVE comes one interval after the headers, not at once nor late.
      expect(Math.abs(Math.min(...firsts) - KEEPALIVE_MS)).toBeLessThan(SLACK_MS);
      const late = target.stats().keepAliveLateMs;
      expect(late?.count).toBeGreaterThanOrEqual(15);
      // The server's own timer lateness: about 1 ms when idle, a few ms on a busy machine.
      expect(late?.p50).toBeLessThan(10);
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
      const sent = await call(target, 'POST', `/participants/${p.userId}/chat_messages`, {
        token: p.token,
        json: { chatSessionId: sessionA, text: 'hello #1' },
      });
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
      await main.waitFor((f) => f.length >= 8, 3_000);
      const times = [main.headersAtMs, ...main.keepAlives().map((f) => f.atMs)];
      expectCadence(
        times.slice(1).map((t, i) => t - (times[i] as number)),
        KEEPALIVE_MS,
      );
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
