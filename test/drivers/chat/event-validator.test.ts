import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateEvent } from '../../../src/drivers/chat/event-validator.js';
import { CHAT_EVENTS } from '../../../src/metrics/registry/chat-metrics.js';
import type { MetricDecl } from '../../../src/metrics/registry/metric-decl.js';

const member = { sessionId: 's1', participantId: 'p1', memberId: 'c1', memberType: 'coach', memberName: 'Ann', photoUrl: null };
const decision = { sessionId: 's1', participantId: 'p1', memberId: 'c1', memberType: 'coach', memberName: 'Ann' };
const message = { id: 'm1', chatSessionId: 's1', senderId: 'p1', senderType: 'participant', text: 'hi', sentAt: '2026-01-01T00:00:00Z' };
const frame = (eventType: string, payload: unknown): string => JSON.stringify({ eventType, payload });

describe('validateEvent', () => {
  it.each([
    ['KEEP_ALIVE', null],
    ['MESSAGE_SENT', [message]],
    ['CHAT_SESSION_MEMBER_REQUESTED', member],
    ['CHAT_SESSION_MEMBER_JOINED', { ...member, photoUrl: 'https://x/y.png' }],
    ['CHAT_SESSION_MEMBER_LEFT', member],
    ['CHAT_SESSION_MEMBER_APPROVED', { ...decision, approvedBy: 'p1' }],
    ['CHAT_SESSION_MEMBER_REJECTED', { ...decision, rejectedBy: 'p1' }],
  ])('accepts a valid %s', (type, payload) => {
    expect(validateEvent(frame(type, payload)).ok).toBe(true);
  });

  const violations = [
    ['{"eventType":"MESSAGE_SENT","payload":[', 'invalid-json'],
    ['[1,2]', 'envelope'],
    ['{"payload":null}', 'envelope'],
    [frame('MESSAGE_DELETED', null), 'unknown-event-type'],
    [frame('MESSAGE_SENT', message), 'message-payload'],
    [frame('MESSAGE_SENT', []), 'message-payload'],
    [frame('MESSAGE_SENT', [{ ...message, text: 3 }]), 'message-payload'],
    [frame('CHAT_SESSION_MEMBER_JOINED', { ...member, memberName: undefined }), 'member-payload'],
    [frame('CHAT_SESSION_MEMBER_JOINED', { ...member, photoUrl: 7 }), 'member-payload'],
    [frame('CHAT_SESSION_MEMBER_APPROVED', decision), 'decision-payload'],
    [frame('CHAT_SESSION_MEMBER_APPROVED', { ...decision, approvedBy: 'p1', rejectedBy: 'p1' }), 'decision-payload'],
    [frame('CHAT_SESSION_MEMBER_REJECTED', { ...decision, approvedBy: 'p1' }), 'decision-payload'],
  ] as const;

  it.each(violations)('flags %s as %s', (data, violation) => {
    const result = validateEvent(data);
    expect(result.ok).toBe(false);
    expect(result.ok ? null : result.violation).toBe(violation);
  });

  it('names every violation it flags where a reader looks the key up: the metric tables and docs/failure-codes.md', () => {
    const kinds = [...new Set(violations.map(([, violation]) => violation))];
    const metrics: readonly MetricDecl[] = CHAT_EVENTS.metrics;
    const doc = metrics.find((metric) => metric.report === 'schemaViolationKinds')?.doc ?? '';
    const page = readFileSync(new URL('../../../docs/failure-codes.md', import.meta.url), 'utf8');
    for (const kind of kinds) {
      expect(doc.split(/[:,]\s*/), `the registry doc of schemaViolationKinds names ${kind}`).toContain(kind);
      expect(page, `docs/failure-codes.md names ${kind}`).toContain(`| \`${kind}\` |`);
    }
  });

  it('returns the messages and session of valid events for isolation checks', () => {
    const sent = validateEvent(frame('MESSAGE_SENT', [message]));
    expect(sent).toMatchObject({ ok: true, messages: [{ chatSessionId: 's1' }] });
    expect(validateEvent(frame('CHAT_SESSION_MEMBER_LEFT', member))).toMatchObject({ ok: true, sessionId: 's1' });
  });
});
