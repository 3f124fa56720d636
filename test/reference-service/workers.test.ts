/**
 * `startTarget({ workers: 2 })`: streams of one session on both workers receive each event
 * exactly once whichever worker took the request; exactly-once mutations (tags, members,
 * participants) hold across workers; stats are the workers' sums. Runs dist/ workers (npm test
 * builds first).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTarget } from '../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { eventually, participant, type SseReader, sleep } from '../support/target-helpers.js';
import { clientOn, openStreamOn, type WorkerClient } from '../support/target-workers.js';

let target: RunningTarget;
let clients: WorkerClient[] = [];
const open: SseReader[] = [];

beforeAll(async () => {
  target = await startTarget({ workers: 2, participants: 6, keepAliveMs: 5_000 });
  clients = [await clientOn(target, 1), await clientOn(target, 2)];
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await target.close();
});

const on = (worker: 1 | 2): WorkerClient => clients[worker - 1] as WorkerClient;

async function streamOn(worker: number, path: string, token: string): Promise<SseReader> {
  const stream = await openStreamOn(target, worker, path, token);
  open.push(stream);
  return stream;
}

/** Event payload ids (message ids, or memberId+type for member events) seen on a stream. */
const eventKeys = (s: SseReader): string[] =>
  s.events().map((f) => {
    const payload = f.json?.payload as Array<{ id: string }> | { memberId: string };
    return Array.isArray(payload) ? (payload[0]?.id as string) : `${f.json?.eventType}:${payload.memberId}`;
  });

describe('events across workers', () => {
  it('reach every stream of the session on both workers exactly once, and the main streams', async () => {
    const p = participant(target, 0);
    const [sessionId, otherSession] = p.chatSessionIds as [string, string];
    const chat = `/participants/${p.userId}/chat_sessions/${sessionId}/stream`;
    const main = `/participants/${p.userId}/stream`;
    const chatStreams = [
      await streamOn(1, chat, p.token),
      await streamOn(2, chat, p.token),
      await streamOn(1, chat, p.token),
      await streamOn(2, chat, p.token),
    ];
    const mainStreams = [await streamOn(1, main, p.token), await streamOn(2, main, p.token)];
    const others = [
      await streamOn(1, `/participants/${p.userId}/chat_sessions/${otherSession}/stream`, p.token),
      await streamOn(2, `/participants/${p.userId}/chat_sessions/${otherSession}/stream`, p.token),
    ];

    const sent: string[] = [];
    for (const worker of [1, 2, 1, 2] as const) {
      const answer = await on(worker).call('POST', `/participants/${p.userId}/chat_messages`, { chatSessionId: sessionId, text: `via ${worker}` }, p.token);
      expect(answer).toMatchObject({ status: 201, worker });
      sent.push((answer.body as { id: string }).id);
    }
    expect(new Set(sent).size).toBe(4);
    const member = { memberId: 'c-000001', memberType: 'coach', memberName: 'Coach One' };
    expect((await on(2).call('POST', `/participants/${p.userId}/chat_sessions/${sessionId}/members`, member)).status).toBe(201);
    expect((await on(1).call('POST', `/participants/${p.userId}/chat_sessions/${sessionId}/members`, member)).status).toBe(409);
    expect((await on(1).call('DELETE', `/participants/${p.userId}/chat_sessions/${sessionId}/members/c-000001`)).status).toBe(200);

    const expectedChat = [...sent, 'CHAT_SESSION_MEMBER_JOINED:c-000001', 'CHAT_SESSION_MEMBER_LEFT:c-000001'];
    for (const stream of chatStreams) await stream.waitFor((f) => f.length >= expectedChat.length);
    for (const stream of mainStreams) await stream.waitFor((f) => f.length >= sent.length);
    await sleep(50);
    // In order too: the primary numbers the commands and every worker replays them in order.
    for (const stream of chatStreams) expect(eventKeys(stream)).toEqual(expectedChat);
    for (const stream of mainStreams) expect(eventKeys(stream)).toEqual(sent);
    for (const stream of others) expect(stream.events()).toEqual([]);
    const stats = await target.collectStats!();
    expect(stats.eventsSent).toBe(4 * expectedChat.length + 2 * sent.length);
    expect(stats.perWorker?.map((w) => w.eventsSent)).toEqual([2 * expectedChat.length + sent.length, 2 * expectedChat.length + sent.length]);
  });

  it('a change answered by one worker is already visible on the other (read your writes)', async () => {
    const p = participant(target, 1);
    const sessionId = p.chatSessionIds[0] as string;
    const answer = await on(1).call('POST', `/participants/${p.userId}/chat_messages`, { chatSessionId: sessionId, text: 'seen everywhere' }, p.token);
    const found = await on(2).call('POST', `/participants/${p.userId}/chat_messages/search`, { chatSessionId: sessionId }, p.token);
    expect((found.body as { items: unknown[] }).items).toEqual([answer.body]);
    // The seeded records are identical in every worker (createdAt included).
    const [a, b] = [await on(1).call('GET', `/participants/${p.userId}`), await on(2).call('GET', `/participants/${p.userId}`)];
    expect(a.body).toEqual(b.body);
  });
});

describe('exactly-once mutations across workers', () => {
  it('concurrent create-and-link of one new name on both workers: exactly one id overall', async () => {
    const extra = await Promise.all([clientOn(target, 1), clientOn(target, 2), clientOn(target, 1), clientOn(target, 2)]);
    try {
      const calls = Array.from({ length: 24 }, (_, i) =>
        (extra[i % extra.length] as WorkerClient).call('POST', '/admin/tags/new_and_link/participant', {
          participantId: participant(target, i % 6).userId,
          tags: ['race-tag', `own-${i}`],
        }),
      );
      const answers = await Promise.all(calls);
      expect(new Set(answers.map((a) => a.worker))).toEqual(new Set([1, 2]));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      const ids = answers.flatMap((a) => a.body as string[]);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(25);
      const raceId = (await on(2).call('POST', '/tags', { tags: ['race-tag'] })).body as string[];
      expect((await on(1).call('POST', '/tags', { tags: ['race-tag'] })).body).toEqual(raceId);
      expect(ids.filter((id) => id === raceId[0])).toHaveLength(1);
    } finally {
      for (const c of extra) await c.close();
    }
  });

  it('participants created concurrently on both workers get distinct ids and exist on both', async () => {
    const created = await Promise.all(
      [1, 2, 1, 2].map((w, i) => on(w as 1 | 2).call('POST', '/participants', { firstName: 'New', lastName: `N${i}`, tags: ['fresh'] })),
    );
    const userIds = created.map((c) => (c.body as { userId: string }).userId);
    expect(new Set(userIds).size).toBe(4);
    for (const userId of userIds) {
      expect((await on(1).call('GET', `/participants/${userId}`)).status).toBe(200);
      expect((await on(2).call('GET', `/participants/${userId}`)).status).toBe(200);
    }
  });

  it('a join request decided on the other worker: one approval wins, the second is 404', async () => {
    const p = participant(target, 2);
    const locked = p.chatSessionIds[2] as string;
    const base = `/participants/${p.userId}/chat_sessions/${locked}/members`;
    expect((await on(1).call('POST', base, { memberId: 'k-9', memberType: 'coach', memberName: 'K' })).status).toBe(202);
    const decisions = await Promise.all([
      on(2).call('POST', `${base}/k-9/approve`, { by: 'c-000001' }),
      on(1).call('POST', `${base}/k-9/reject`, { by: 'c-000001' }),
    ]);
    expect(decisions.map((d) => d.status).sort()).toEqual([200, 404]);
  });
});

describe('stats across workers', () => {
  it('sum the workers: streams, handles, requests; back to 0 when the streams close', async () => {
    const p = participant(target, 3);
    const path = `/participants/${p.userId}/chat_sessions/${p.chatSessionIds[0]}/stream`;
    const before = await target.collectStats!();
    await streamOn(1, path, p.token);
    await streamOn(2, path, p.token);
    await streamOn(2, path, p.token);
    const stats = await target.collectStats!();
    expect(stats).toMatchObject({ openStreams: 3, openChatStreams: 3, openMainStreams: 0, streamHandles: 9 });
    expect(stats.perWorker?.map((w) => [w.index, w.openStreams])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(stats.requests).toBeGreaterThan(before.requests);
    expect(stats.perWorker?.every((w) => w.pid > 0 && w.rssBytes > 0)).toBe(true);
    // stats() (synchronous) follows the snapshots the workers push every 100 ms.
    expect(await eventually(() => target.stats().openStreams === 3)).toBe(true);
    for (const s of open.splice(0)) s.close();
    expect(await eventually(() => target.stats().streamHandles === 0)).toBe(true);
  });
});
