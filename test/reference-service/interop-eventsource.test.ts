/** A third-party SSE client (eventsource v4, custom fetch for the headers) reads the stream. */
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { API, call, participant, startTestTarget } from '../support/target-helpers.js';

let target: RunningTarget;
beforeAll(async () => {
  target = await startTestTarget({ keepAliveMs: 100 });
});
afterAll(() => target.close());

describe('eventsource interop', () => {
  it('receives KEEP_ALIVE and MESSAGE_SENT as default message events', async () => {
    const p = participant(target);
    const sessionId = p.chatSessionIds[0] as string;
    const source = new EventSource(`${target.url}${API}/participants/${p.userId}/chat_sessions/${sessionId}/stream`, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, authorization: `Bearer ${p.token}`, 'x-api-key': target.fixtures.apiKey } }),
    });
    const received: Array<{ eventType: string; payload: unknown }> = [];
    try {
      const gotKeepAlive = new Promise<void>((resolve, reject) => {
        source.onerror = (event) => reject(new Error(`eventsource error: ${event.message ?? 'unknown'}`));
        source.onmessage = (event) => {
          received.push(JSON.parse(event.data) as { eventType: string; payload: unknown });
          if (received.some((e) => e.eventType === 'KEEP_ALIVE')) resolve();
        };
      });
      await gotKeepAlive;
      expect(source.readyState).toBe(EventSource.OPEN);
      const gotMessage = new Promise<void>((resolve) => {
        source.addEventListener('message', () => {
          if (received.some((e) => e.eventType === 'MESSAGE_SENT')) resolve();
        });
      });
      const sent = await call(target, 'POST', `/participants/${p.userId}/chat_messages`, {
        token: p.token,
        json: { chatSessionId: sessionId, text: 'via eventsource' },
      });
      await gotMessage;
      expect(received.find((e) => e.eventType === 'MESSAGE_SENT')?.payload).toEqual([sent.body]);
      expect(received[0]).toEqual({ eventType: 'KEEP_ALIVE', payload: null });
    } finally {
      source.close();
    }
  });
});
