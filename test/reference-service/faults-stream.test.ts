/** Per-stream faults (keepalive-drift, stall, drop): each changes only its own behaviour. */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { call, eventually, expectCadence, openStream, participant, SLACK_MS, type SseReader, sleep, startTestTarget } from '../support/target-helpers.js';

const INTERVAL = 100;
let target: RunningTarget | null = null;
const streams: SseReader[] = [];

afterEach(async () => {
  for (const s of streams.splice(0)) s.close();
  await target?.close();
  target = null;
});

async function withFault(fault: string): Promise<RunningTarget> {
  target = await startTestTarget({ keepAliveMs: INTERVAL, faults: [fault] });
  return target;
}

async function chatStream(t: RunningTarget, index = 0, session = 0): Promise<SseReader> {
  const p = participant(t, index);
  const stream = await openStream(t, `/participants/${p.userId}/chat_sessions/${p.chatSessionIds[session]}/stream`, p.token);
  streams.push(stream);
  return stream;
}

const gaps = (stream: SseReader): number[] => {
  const times = [stream.headersAtMs, ...stream.keepAlives().map((f) => f.atMs)];
  return times.slice(1).map((t, i) => t - (times[i] as number));
};

describe('keepalive-drift', () => {
  it('at 100% every gap (the first included) is 1.5 x the interval, never a stall, and events still flow', async () => {
    const t = await withFault('keepalive-drift=100');
    const stream = await chatStream(t);
    // Eight gaps: enough that a scheduling hiccup (one gap stretched, the next cut short) moves no median.
    await stream.waitFor((f) => f.length >= 8, 3_000);
    expectCadence(gaps(stream), INTERVAL * 1.5);
    const p = participant(t);
    await call(t, 'POST', `/participants/${p.userId}/chat_messages`, { token: p.token, json: { chatSessionId: p.chatSessionIds[0], text: 'still here' } });
    await stream.waitFor((f) => f.some((x) => x.json?.eventType === 'MESSAGE_SENT'), 1_000);
    expect(stream.events()).toHaveLength(1);
  });

  it('at 50% some streams drift and others keep the interval', async () => {
    const t = await withFault('keepalive-drift=50');
    const all = await Promise.all(Array.from({ length: 24 }, (_, i) => chatStream(t, i % 6, Math.floor(i / 6) % 3)));
    await Promise.all(all.map((s) => s.waitFor((f) => f.length >= 2, 2_000)));
    const firstGaps = all.map((s) => gaps(s)[0] as number);
    const drifted = firstGaps.filter((g) => g > INTERVAL * 1.25).length;
    // P(all 24 the same) = 2^-23: the share is honoured, not all-or-nothing.
    expect(drifted).toBeGreaterThan(0);
    expect(drifted).toBeLessThan(24);
  });
});

describe('stall', () => {
  it('at 100% streams open with 200 then stay silent and open: no KEEP_ALIVE, no events, no drop', async () => {
    const t = await withFault('stall=100');
    const stream = await chatStream(t);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream');
    const p = participant(t);
    const sent = await call(t, 'POST', `/participants/${p.userId}/chat_messages`, {
      token: p.token,
      json: { chatSessionId: p.chatSessionIds[0], text: 'into the void' },
    });
    expect(sent.status).toBe(201);
    await sleep(INTERVAL * 3);
    expect(stream.frames).toHaveLength(0);
    expect(t.stats().openStreams).toBe(1);
    const ended = await Promise.race([stream.ended.then(() => true), sleep(10).then(() => false)]);
    expect(ended).toBe(false);
    stream.close();
    expect(await eventually(() => t.stats().openStreams === 0 && t.stats().streamHandles === 0)).toBe(true);
  });
});

describe('drop', () => {
  it('at 100% cuts every stream between 0.5 and 1.5 x the interval after open', async () => {
    const t = await withFault('drop=100');
    const all = await Promise.all(Array.from({ length: 8 }, (_, i) => chatStream(t, i % 6)));
    const ends = await Promise.all(all.map((s) => s.ended));
    all.forEach((stream, i) => {
      // The server opened the stream after the request was sent and before the headers were
      // seen, so these bounds hold however late this busy client reads its sockets.
      const endMs = ends[i]?.atMs as number;
      expect(endMs - stream.requestedAtMs).toBeGreaterThanOrEqual(INTERVAL * 0.5 - 1);
      expect(endMs - stream.headersAtMs).toBeLessThan(INTERVAL * 1.5 + 2 * SLACK_MS);
      // A cut is not a clean end: the chunked body never terminates.
      expect(ends[i]?.error).toBe(true);
    });
    expect(await eventually(() => t.stats().openStreams === 0 && t.stats().streamHandles === 0)).toBe(true);
  });

  it('leaves the KEEP_ALIVE cadence alone before the cut', async () => {
    const t = await withFault('drop=100');
    const all = await Promise.all(Array.from({ length: 16 }, (_, i) => chatStream(t, i % 6, i % 3)));
    await Promise.all(all.map((s) => s.ended));
    // Cuts fall in 0.5..1.5 intervals, so about half the streams live long enough for one
    // KEEP_ALIVE (P(none of 16) = 2^-16); that one comes on time, never early or doubled.
    const firsts = all.filter((s) => s.frames.length > 0).map((s) => (s.frames[0]?.atMs as number) - s.headersAtMs);
    expect(firsts.length).toBeGreaterThan(0);
    for (const stream of all) expect(stream.frames.length).toBeLessThanOrEqual(1);
    for (const first of firsts) expect(Math.abs(first - INTERVAL)).toBeLessThan(2 * SLACK_MS);
  });
});

describe('no faults', () => {
  it('keeps every stream open, on cadence, with no extra frames', async () => {
    const t = await startTestTarget({ keepAliveMs: INTERVAL });
    target = t;
    const all = await Promise.all(Array.from({ length: 6 }, (_, i) => chatStream(t, i)));
    await Promise.all(all.map((s) => s.waitFor((f) => f.length >= 8, 3_000)));
    for (const stream of all) {
      expect(stream.frames.every((f) => f.json?.eventType === 'KEEP_ALIVE')).toBe(true);
      expectCadence(gaps(stream), INTERVAL);
    }
  });
});
