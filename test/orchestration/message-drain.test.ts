/**
 * Chat messages and membership calls in flight when a run stops drain like uploads (they carry
 * ScenarioContext.cut, engine/drain.ts), never aborted at the stop itself: over h2 an abort in the tick a
 * message was sent left Node writing empty DATA frames forever. A forwarder in front of the
 * reference target holds every message's answer 400 ms, so several are in flight at the end;
 * each must be answered in full, none reset by the client.
 */
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { startForwarder } from '../support/forwarder.js';
import { quickProfile } from '../support/profiles.js';
import { runProfile } from '../support/run-helpers.js';
import { startTargetWithFixtures } from '../support/target-helpers.js';

const HOLD_MS = 400;

let target: RunningTarget;
let fixtures: string;

beforeAll(async () => {
  ({ target, fixtures } = await startTargetWithFixtures({ prefix: 'coachbench-message-drain-' }));
});
afterAll(() => target.close());

const isMessage = (req: IncomingMessage): boolean => req.method === 'POST' && (req.url ?? '').endsWith('/chat_messages');

/** Forwards to the target, holding each message's answer; counts messages answered in full and reset before. */
async function holdingForwarder(upstreamUrl: string) {
  const messages = { answered: 0, reset: 0 };
  const forwarder = await startForwarder(upstreamUrl, {
    onRequest: (req, res) => {
      if (isMessage(req)) res.on('close', () => (res.writableFinished ? messages.answered++ : messages.reset++));
    },
    holdAnswerMs: (req) => (isMessage(req) ? HOLD_MS : 0),
  });
  return { ...forwarder, messages };
}

describe('messages in flight at the end of a run', () => {
  it('are answered, not reset by the client at the stop', async () => {
    const forwarder = await holdingForwarder(target.url);
    try {
      const { report } = await runProfile(
        quickProfile({
          duration: '2500ms',
          chatStreams: { participants: 12, rampPerSec: 200, switchEvery: '10s', messageRatePerSec: 25, churnRatePerSec: 0 },
        }),
        { target: forwarder.url, fixtures, expectKeepalive: '500ms' },
      );
      // About HOLD_MS × 25/s = 10 messages were in flight when the run stopped.
      expect(report.scenarios.chatStreams!.messagesSent).toBeGreaterThan(20);
      expect(forwarder.messages.reset, 'messages the client reset').toBe(0);
      expect(forwarder.messages.answered).toBe(report.scenarios.chatStreams!.messagesSent);
    } finally {
      forwarder.close();
    }
  });
});
