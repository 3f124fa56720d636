/**
 * Faults under `workers: 2` keep their single-process meaning: `duplicate` per event per
 * stream, `leak` once per event (one copy, to one other-session stream on any worker),
 * `latency` on answers and on events delivered by the other worker.
 */
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { startTarget } from '../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { participant, type SseReader, sleep } from '../support/target-helpers.js';
import { clientOn, openStreamOn, type WorkerClient } from '../support/target-workers.js';

let target: RunningTarget | null = null;
const open: SseReader[] = [];
const clients: WorkerClient[] = [];

afterEach(async () => {
  for (const s of open.splice(0)) s.close();
  for (const c of clients.splice(0)) await c.close();
  await target?.close();
  target = null;
});

async function withFaults(...faults: string[]): Promise<RunningTarget> {
  target = await startTarget({ workers: 2, participants: 3, keepAliveMs: 5_000, faults });
  return target;
}

async function chatOn(t: RunningTarget, worker: number, session: number): Promise<SseReader> {
  const p = participant(t);
  const stream = await openStreamOn(t, worker, `/participants/${p.userId}/chat_sessions/${p.chatSessionIds[session]}/stream`, p.token);
  open.push(stream);
  return stream;
}

async function sendOn(t: RunningTarget, worker: number, text: string): Promise<{ id: string }> {
  const client = await clientOn(t, worker);
  clients.push(client);
  const p = participant(t);
  const answer = await client.call('POST', `/participants/${p.userId}/chat_messages`, { chatSessionId: p.chatSessionIds[0], text }, p.token);
  expect(answer.status).toBe(201);
  return answer.body as { id: string };
}

const messageIds = (s: SseReader): string[] => s.events().map((f) => (f.json?.payload as Array<{ id: string }>)[0]?.id as string);

describe('faults across workers', () => {
  it('duplicate=100: every stream on either worker gets each event exactly twice', async () => {
    const t = await withFaults('duplicate=100');
    const streams = [await chatOn(t, 1, 0), await chatOn(t, 2, 0)];
    const sent = await sendOn(t, 2, 'twice');
    for (const s of streams) await s.waitFor((f) => f.length >= 2);
    await sleep(30);
    for (const s of streams) expect(messageIds(s)).toEqual([sent.id, sent.id]);
  });

  it('leak=100: one copy per event, to an other-session stream on whichever worker holds one', async () => {
    const t = await withFaults('leak=100');
    const own = await chatOn(t, 1, 0);
    const lone = await chatOn(t, 2, 1);
    const first = await sendOn(t, 1, 'leaks to worker 2');
    await lone.waitFor((f) => f.length >= 1);
    expect(messageIds(lone)).toEqual([first.id]);
    // As in one process: the copy carries no id: line (docs/target.md, leak).
    const copy = lone.frames.find((frame) => frame.json?.eventType === 'MESSAGE_SENT')!;
    expect(copy.raw).toBe(`data: ${copy.data}`);
    // Other-session streams on both workers now: still exactly one leaked copy per event.
    const second = await chatOn(t, 1, 2);
    const sent = [await sendOn(t, 2, 'a'), await sendOn(t, 1, 'b'), await sendOn(t, 2, 'c')];
    await own.waitFor((f) => f.length >= 4);
    await sleep(50);
    expect(messageIds(own)).toEqual([first.id, ...sent.map((m) => m.id)]);
    expect([...messageIds(lone), ...messageIds(second)].sort()).toEqual([first.id, ...sent.map((m) => m.id)].sort());
  });

  it('leak=100 with no other session open anywhere writes no copy', async () => {
    const t = await withFaults('leak=100');
    const streams = [await chatOn(t, 1, 0), await chatOn(t, 2, 0)];
    await sendOn(t, 1, 'alone');
    for (const s of streams) await s.waitFor((f) => f.length >= 1);
    await sleep(30);
    expect((await t.collectStats!()).eventsSent).toBe(2);
  });

  it('latency=150 delays the answer and the event on the other worker by at least 150 ms', async () => {
    const t = await withFaults('latency=150');
    const far = await chatOn(t, 2, 0);
    const client = await clientOn(t, 1);
    clients.push(client);
    const p = participant(t);
    const startedMs = performance.now();
    const answer = await client.call('POST', `/participants/${p.userId}/chat_messages`, { chatSessionId: p.chatSessionIds[0], text: 'late' }, p.token);
    expect(performance.now() - startedMs).toBeGreaterThanOrEqual(150);
    await far.waitFor((f) => f.length >= 1);
    expect((far.frames[0]?.atMs as number) - startedMs).toBeGreaterThanOrEqual(150);
    expect(messageIds(far)).toEqual([(answer.body as { id: string }).id]);
  });
});
