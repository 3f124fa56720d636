import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { call, openStream, participant, type SseReader, startTestTarget } from '../support/target-helpers.js';

let target: RunningTarget;
const open: SseReader[] = [];
beforeAll(async () => {
  target = await startTestTarget();
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(() => target.close());

const coach = { memberId: 'c-000001', memberType: 'coach', memberName: 'Coach One' };

async function sessionStream(index: number, sessionNumber: number) {
  const p = participant(target, index);
  const sessionId = p.chatSessionIds[sessionNumber - 1] as string;
  const stream = await openStream(target, `/participants/${p.userId}/chat_sessions/${sessionId}/stream`, p.token);
  open.push(stream);
  return { p, sessionId, stream, base: `/participants/${p.userId}/chat_sessions/${sessionId}/members` };
}

const hasEvent = (type: string) => (frames: SseReader['frames']) => frames.some((f) => f.json?.eventType === type);

describe('membership events', () => {
  it('joins an unlocked session (201, JOINED) and leaves it (200, LEFT) with the member payload', async () => {
    const { p, sessionId, stream, base } = await sessionStream(0, 1);
    const joined = await call(target, 'POST', base, { json: { ...coach, photoUrl: 'https://x.invalid/c.png' } });
    expect(joined.status).toBe(201);
    const payload = {
      sessionId,
      participantId: p.userId,
      memberId: 'c-000001',
      memberType: 'coach',
      memberName: 'Coach One',
      photoUrl: 'https://x.invalid/c.png',
    };
    expect(joined.body).toEqual(payload);
    await stream.waitFor(hasEvent('CHAT_SESSION_MEMBER_JOINED'));
    expect(stream.events().map((f) => f.json)).toEqual([{ eventType: 'CHAT_SESSION_MEMBER_JOINED', payload }]);
    expect((await call(target, 'POST', base, { json: coach })).status).toBe(409);
    const session = await call(target, 'GET', `/participants/${p.userId}/chat_sessions/${sessionId}`, { token: p.token });
    expect(session.body).toMatchObject({ id: sessionId, participantId: p.userId, locked: false });
    expect((session.body as { members: Array<{ id: string }> }).members.map((m) => m.id)).toEqual([p.userId, 'c-000001']);

    const left = await call(target, 'DELETE', `${base}/c-000001`, { token: p.token });
    expect(left.status).toBe(200);
    await stream.waitFor(hasEvent('CHAT_SESSION_MEMBER_LEFT'));
    expect(stream.events()[1]?.json).toEqual({ eventType: 'CHAT_SESSION_MEMBER_LEFT', payload });
    expect((await call(target, 'DELETE', `${base}/c-000001`)).status).toBe(404);
    expect((await call(target, 'DELETE', `${base}/${p.userId}`)).status).toBe(409);
  });

  it('a join on a locked session is REQUESTED (202); approve gives APPROVED with approvedBy only', async () => {
    const { p, sessionId, stream, base } = await sessionStream(1, 3);
    const session = await call(target, 'GET', `/participants/${p.userId}/chat_sessions/${sessionId}`);
    expect((session.body as { locked: boolean }).locked).toBe(true);
    const requested = await call(target, 'POST', base, { json: coach });
    expect(requested.status).toBe(202);
    expect(requested.body).toMatchObject({ memberId: 'c-000001', photoUrl: null });
    expect((await call(target, 'POST', base, { json: coach })).status).toBe(409);
    const approved = await call(target, 'POST', `${base}/c-000001/approve`, { token: p.token, json: { by: p.userId } });
    expect(approved.status).toBe(200);
    const decision = { sessionId, participantId: p.userId, memberId: 'c-000001', memberType: 'coach', memberName: 'Coach One', approvedBy: p.userId };
    expect(approved.body).toEqual(decision);
    await stream.waitFor(hasEvent('CHAT_SESSION_MEMBER_APPROVED'));
    expect(stream.events().map((f) => f.json?.eventType)).toEqual(['CHAT_SESSION_MEMBER_REQUESTED', 'CHAT_SESSION_MEMBER_APPROVED']);
    expect(stream.events()[1]?.json?.payload).toEqual(decision);
    const after = await call(target, 'GET', `/participants/${p.userId}/chat_sessions/${sessionId}`);
    expect((after.body as { members: Array<{ id: string }> }).members.map((m) => m.id)).toContain('c-000001');
    expect((await call(target, 'POST', `${base}/c-000001/approve`, { json: { by: p.userId } })).status).toBe(404);
  });

  it('reject gives REJECTED with rejectedBy only and the member stays out', async () => {
    const { p, stream, base } = await sessionStream(2, 3);
    await call(target, 'POST', base, {
      token: target.connectorToken as string,
      json: { memberId: 'k-000001', memberType: 'connector', memberName: 'Connector One' },
    });
    const rejected = await call(target, 'POST', `${base}/k-000001/reject`, { json: { by: 'c-000001' } });
    expect(rejected.status).toBe(200);
    await stream.waitFor(hasEvent('CHAT_SESSION_MEMBER_REJECTED'));
    const payload = stream.events()[1]?.json?.payload as Record<string, unknown>;
    expect(payload.rejectedBy).toBe('c-000001');
    expect('approvedBy' in payload).toBe(false);
    expect('photoUrl' in payload).toBe(false);
    const session = await call(target, 'GET', `/participants/${p.userId}/chat_sessions/${p.chatSessionIds[2]}`);
    expect((session.body as { members: Array<{ id: string }>; pendingMembers: unknown[] }).members.map((m) => m.id)).toEqual([p.userId]);
    expect((session.body as { pendingMembers: unknown[] }).pendingMembers).toEqual([]);
  });

  it('validates the bodies and confines participants to their own sessions', async () => {
    const { base } = await sessionStream(3, 1);
    expect((await call(target, 'POST', base, { json: { memberId: 'x' } })).status).toBe(400);
    expect((await call(target, 'POST', base, { json: { ...coach, photoUrl: 5 } })).status).toBe(400);
    expect((await call(target, 'POST', `${base}/nobody/approve`, { json: {} })).status).toBe(400);
    expect((await call(target, 'POST', base, { token: participant(target, 4).token, json: coach })).status).toBe(403);
  });
});

describe('chat sessions and messages search', () => {
  it('searches sessions by lock state, messages by session and text, and unread messages', async () => {
    const p = participant(target, 5);
    const all = await call(target, 'POST', `/participants/${p.userId}/chat_sessions/search`, { token: p.token });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 3, limit: 50, offset: 0 });
    const locked = await call(target, 'POST', `/participants/${p.userId}/chat_sessions/search`, { token: p.token, json: { locked: true } });
    expect((locked.body as { items: Array<{ id: string }> }).items.map((s) => s.id)).toEqual([p.chatSessionIds[2]]);

    const route = `/participants/${p.userId}/chat_messages`;
    await call(target, 'POST', route, { token: p.token, json: { chatSessionId: p.chatSessionIds[0], text: 'from me' } });
    await call(target, 'POST', route, { json: { chatSessionId: p.chatSessionIds[0], text: 'from coach' } });
    await call(target, 'POST', route, { json: { chatSessionId: p.chatSessionIds[1], text: 'other session' } });
    const bySession = await call(target, 'POST', `${route}/search`, { token: p.token, json: { chatSessionId: p.chatSessionIds[0] } });
    expect((bySession.body as { items: Array<{ text: string }> }).items.map((m) => m.text)).toEqual(['from me', 'from coach']);
    const byText = await call(target, 'POST', `${route}/search`, { token: p.token, json: { text: 'session', limit: 1 } });
    expect(byText.body).toMatchObject({ total: 1, items: [{ text: 'other session', senderType: 'coach' }] });
    const unread = await call(target, 'POST', `/participants/${p.userId}/chat_unread_messages/search`, { token: p.token, json: {} });
    expect((unread.body as { items: Array<{ text: string }> }).items.map((m) => m.text)).toEqual(['from coach', 'other session']);
    expect((await call(target, 'POST', `${route}/search`, { token: p.token, json: { limit: 0 } })).status).toBe(400);
  });
});
