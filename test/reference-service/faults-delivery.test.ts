/** Per-event and per-request faults (latency, duplicate, leak, bad-json, error-rate). */
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { measureStalls } from '../support/loop-stalls.js';
import { JPEG, MULTIPART_TYPE, multipart } from '../support/multipart.js';
import { call, openStream, participant, SLACK_MS, type SseReader, sleep, startTestTarget } from '../support/target-helpers.js';

const INTERVAL = 100;
let target: RunningTarget | null = null;
const streams: SseReader[] = [];

afterEach(async () => {
  for (const s of streams.splice(0)) s.close();
  await target?.close();
  target = null;
});

async function withFaults(...faults: string[]): Promise<RunningTarget> {
  target = await startTestTarget({ keepAliveMs: INTERVAL, faults });
  return target;
}

async function chatStream(t: RunningTarget, session: number): Promise<SseReader> {
  const p = participant(t);
  const stream = await openStream(t, `/participants/${p.userId}/chat_sessions/${p.chatSessionIds[session]}/stream`, p.token);
  streams.push(stream);
  return stream;
}

function send(t: RunningTarget, session: number, text: string) {
  const p = participant(t);
  return call(t, 'POST', `/participants/${p.userId}/chat_messages`, { token: p.token, json: { chatSessionId: p.chatSessionIds[session], text } });
}

const messages = (s: SseReader) => s.frames.filter((f) => f.json?.eventType === 'MESSAGE_SENT');

describe('latency', () => {
  const LATENCY = 300;

  it('delays every non-stream answer and every event by MS, but not stream headers nor KEEP_ALIVE', async () => {
    const t = await withFaults(`latency=${LATENCY}`);
    // Each bound is the fault-free time plus the time this loop (the target's too) was held up:
    // a loaded machine's stall moves it, a delay of MS where none belongs still breaks it.
    const { value: stream, stallMs: openStall } = await measureStalls(() => chatStream(t, 0));
    // Headers are flushed at once; the first KEEP_ALIVE keeps its schedule (a delayed one
    // would come after INTERVAL + LATENCY).
    expect(stream.headersAtMs - stream.requestedAtMs).toBeLessThan(LATENCY / 2 + openStall);
    const { stallMs: keepAliveStall } = await measureStalls(() => stream.waitFor((f) => f.length >= 1));
    expect((stream.frames[0]?.atMs as number) - stream.headersAtMs).toBeLessThan(INTERVAL + 2 * SLACK_MS + keepAliveStall);
    const p = participant(t);
    const sessionPath = `/participants/${p.userId}/chat_sessions/${p.chatSessionIds[0]}`;
    // Delayed once by MS: a second delay would add another MS.
    const { value: get, stallMs: getStall } = await measureStalls(() => call(t, 'GET', sessionPath, { token: p.token }));
    expect(get.status).toBe(200);
    expect(get.elapsedMs).toBeGreaterThanOrEqual(LATENCY);
    expect(get.elapsedMs).toBeLessThan(LATENCY + 2 * SLACK_MS + getStall);
    const problem = await call(t, 'GET', sessionPath, { token: null });
    expect(problem.status).toBe(401);
    expect(problem.elapsedMs).toBeGreaterThanOrEqual(LATENCY);
    const sentAt = performance.now();
    const { value: sent, stallMs: deliveryStall } = await measureStalls(async () => {
      const answer = await send(t, 0, 'slow');
      await stream.waitFor((f) => f.some((x) => x.json?.eventType === 'MESSAGE_SENT'), 1_000);
      return answer;
    });
    expect(sent.status).toBe(201);
    const deliveredAfter = (messages(stream)[0]?.atMs as number) - sentAt;
    expect(deliveredAfter).toBeGreaterThanOrEqual(LATENCY);
    expect(deliveredAfter).toBeLessThan(LATENCY + 2 * SLACK_MS + deliveryStall);
  });

  it('without the fault, answers and events are immediate', async () => {
    const t = await withFaults();
    const stream = await chatStream(t, 0);
    const sentAt = performance.now();
    const { stallMs } = await measureStalls(async () => {
      await send(t, 0, 'fast');
      await stream.waitFor((f) => f.some((x) => x.json?.eventType === 'MESSAGE_SENT'), 1_000);
    });
    // Far below the fault's value (about 1-2 ms when idle), but for what a loaded machine held the loop up.
    expect((messages(stream)[0]?.atMs as number) - sentAt).toBeLessThan(LATENCY / 2 + stallMs);
  });
});

describe('duplicate', () => {
  it('at 100% writes each event twice and leaves KEEP_ALIVE single', async () => {
    const t = await withFaults('duplicate=100');
    const stream = await chatStream(t, 0);
    await send(t, 0, 'twice');
    await stream.waitFor((f) => f.filter((x) => x.json?.eventType === 'MESSAGE_SENT').length === 2, 1_000);
    const [a, b] = messages(stream);
    expect(a?.data).toBe(b?.data);
    await stream.waitFor((f) => f.filter((x) => x.json?.eventType === 'KEEP_ALIVE').length >= 2, 1_000);
    const times = stream.keepAlives().map((f) => f.atMs);
    expect((times[1] as number) - (times[0] as number)).toBeGreaterThan(INTERVAL - SLACK_MS);
    expect(stream.frames.every((f) => f.json !== null)).toBe(true);
    expect(t.stats().eventsSent).toBe(2);
  });
});

describe('leak', () => {
  it("at 100% also writes a session's event, unchanged, to a stream of another session", async () => {
    const t = await withFaults('leak=100');
    const own = await chatStream(t, 0);
    const other = await chatStream(t, 1);
    const sent = await send(t, 0, 'meant for session 1');
    await other.waitFor((f) => f.some((x) => x.json?.eventType === 'MESSAGE_SENT'), 1_000);
    expect(messages(other)[0]?.json?.payload).toEqual([sent.body]);
    expect((messages(other)[0]?.json?.payload as Array<{ chatSessionId: string }>)[0]?.chatSessionId).toBe(participant(t).chatSessionIds[0]);
    await sleep(20);
    expect(messages(own)).toHaveLength(1);
    expect(messages(other)).toHaveLength(1);
  });

  it('writes the copy without an id: line, so the receiving stream keeps its own ids and resumes in its own session', async () => {
    const t = await withFaults('leak=100');
    const own = await chatStream(t, 0);
    const other = await chatStream(t, 1);
    await send(t, 0, 'of session 0');
    await other.waitFor((f) => f.some((x) => x.json?.eventType === 'MESSAGE_SENT'), 1_000);
    const original = messages(own)[0]!;
    // The data line is the original's, byte for byte; the id of session 0 is not carried
    // over, where it would become the other stream's Last-Event-ID (docs/target.md, leak).
    expect(original.raw).toBe(`id: 1\ndata: ${original.data}`);
    expect(messages(other)[0]!.raw).toBe(`data: ${original.data}`);
    // The receiving stream's own events keep its session's numbering, from 1.
    await send(t, 1, 'of session 1');
    await other.waitFor((f) => f.filter((x) => x.json?.eventType === 'MESSAGE_SENT').length >= 2, 1_000);
    expect(messages(other).map((frame) => frame.id)).toEqual([undefined, '1']);
  });

  it('without another session open there is nowhere to leak', async () => {
    const t = await withFaults('leak=100');
    const own = await chatStream(t, 0);
    await send(t, 0, 'alone');
    await own.waitFor((f) => f.some((x) => x.json?.eventType === 'MESSAGE_SENT'), 1_000);
    expect(t.stats().eventsSent).toBe(1);
  });
});

describe('bad-json', () => {
  it('at 100% follows every real frame with one malformed frame; the real frames stay intact', async () => {
    const t = await withFaults('bad-json=100');
    const stream = await chatStream(t, 0);
    await stream.waitFor((f) => f.length >= 2, 1_000);
    await send(t, 0, 'with noise');
    await stream.waitFor((f) => f.some((x) => x.json?.eventType === 'MESSAGE_SENT'), 1_000);
    await stream.waitFor((f) => f.length >= 4 && f.length % 2 === 0, 1_000);
    stream.frames.forEach((frame, i) => {
      if (i % 2 === 0) expect(frame.json, frame.data).not.toBeNull();
      else expect(frame.json, frame.data).toBeNull();
    });
    expect(messages(stream)).toHaveLength(1);
  });
});

describe('error-rate', () => {
  it('at 100% answers photo and tag requests with 500 problem+json and nothing else', async () => {
    const t = await withFaults('error-rate=100');
    const p = participant(t);
    const photo = await call(t, 'PATCH', `/participants/${p.userId}/profile_photo`, {
      token: p.token,
      body: multipart([{ name: 'filename', filename: 'a.jpg', data: JPEG() }]),
      headers: { 'content-type': MULTIPART_TYPE },
    });
    expect(photo.status).toBe(500);
    expect(photo.headers['content-type']).toMatch(/^application\/problem\+json/);
    for (const [method, path, json] of [
      ['POST', '/admin/tags/new_and_link/participant', { participantId: p.userId, tags: ['x'] }],
      ['POST', '/tags', { tags: ['y'] }],
      ['PUT', '/tags/link/participant', { participantId: p.userId, tagIds: ['t-000001'] }],
    ] as const) {
      expect((await call(t, method, path, { json })).status).toBe(500);
    }
    // Nothing was created by the failed calls, and other endpoints are untouched.
    expect((await call(t, 'GET', `/participants/${p.userId}`)).body).toMatchObject({ photoUrl: null, tags: [] });
    expect((await send(t, 0, 'fine')).status).toBe(201);
    // Auth still comes first: a participant on a tag operation is 403, not 500.
    expect((await call(t, 'POST', '/tags', { token: p.token, json: { tags: ['z'] } })).status).toBe(403);
  });

  it('at 50% fails about half of the requests', async () => {
    const t = await withFaults('error-rate=50');
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => call(t, 'POST', '/tags', { json: { tags: [`n${i}`] } })));
    const failed = results.filter((r) => r.status === 500).length;
    expect(results.every((r) => r.status === 200 || r.status === 500)).toBe(true);
    expect(failed).toBeGreaterThan(10);
    expect(failed).toBeLessThan(50);
  });
});
