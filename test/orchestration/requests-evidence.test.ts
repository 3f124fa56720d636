/**
 * `requests.expectations` wants evidence for every enabled request kind (docs/design.md §5.4):
 * another kind's answers prove nothing about an endpoint that answered nothing, or that a kind
 * without its coach token never asked. Such a run is incomplete (exit 1), never a pass, as a
 * photo upload that got no answer is.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTarget } from '../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { REQUEST_KINDS_ONLY, writeProfile } from '../support/profiles.js';
import { runProfile } from '../support/run-helpers.js';

const SESSION = '/participants/{user_id}/chat_sessions/{id}';

/** Two kinds at 10 req/s each: a session read and a coach's tag creation. */
function twoKinds(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'kinds-evidence',
    duration: '2s',
    target: { keepAlive: '500ms', participants: 10, sessionsPerParticipant: 2 },
    ...REQUEST_KINDS_ONLY,
    requests: {
      model: 'open',
      ratePerSec: 20,
      maxInFlight: 64,
      timeout: '400ms',
      kinds: [
        { name: 'getSession', method: 'GET', path: '/participants/{userId}/chat_sessions/{sessionId}', expect: { status: [200] } },
        { name: 'createTags', method: 'POST', path: '/tags', credential: 'coach', body: { tags: ['t-{unique}'] }, expect: { status: [200, 201] } },
      ],
    },
    ...overrides,
  };
}

const checkOf = (report: { checks: { id: string; status: string; detail: string }[] }) => report.checks.find((c) => c.id === 'requests.expectations')!;

describe('requests.expectations wants an answer judged for each kind', () => {
  it('is a skip, naming the kind and its failures, when one kind got no answer: the run is incomplete', async () => {
    // Every session read is answered after the kind's timeout; the tag creations are answered at once.
    const profile = twoKinds({ target: { keepAlive: '500ms', participants: 10, sessionsPerParticipant: 2, faults: [`latency=1500 on GET ${SESSION}`] } });
    const { report, exitCode } = await runProfile(profile);
    expect(report.scenarios.requests!.getSession!.requests).toBeGreaterThan(0);
    expect(report.scenarios.requests!.getSession!.errors).toBe(report.scenarios.requests!.getSession!.requests);
    expect(report.scenarios.requests!.createTags!.errors).toBe(0);
    const check = checkOf(report);
    expect(check.status, check.detail).toBe('skip');
    expect(check.detail).toMatch(/^no evidence for every request kind: getSession had no answer judged: \d+ requests, \d+ failed \(timeout:headers: \d+\)/);
    expect(report.verdict).toBe('incomplete');
    expect(exitCode).toBe(1);
  }, 30_000);

  describe('against an external target, without a coach token', () => {
    let target: RunningTarget;
    let fixtures: string;

    beforeAll(async () => {
      target = await startTarget({ participants: 10, sessionsPerParticipant: 2, keepAliveMs: 500 });
      const { dir } = await writeProfile({});
      fixtures = join(dir, 'fixtures.json');
      const { coachToken: _dropped, ...withoutCoach } = target.fixtures;
      await writeFile(fixtures, JSON.stringify(withoutCoach));
    });
    afterAll(() => target.close());

    it('is a skip naming the coach kind that sent nothing, though the other kind held', async () => {
      const { report, exitCode } = await runProfile(twoKinds({ target: undefined }), { target: target.url, fixtures, expectKeepalive: '500ms' });
      expect(report.scenarios.requests!.createTags!.requests).toBe(0);
      expect(report.scenarios.requests!.getSession!.requests).toBeGreaterThan(0);
      const check = checkOf(report);
      expect(check.status, check.detail).toBe('skip');
      expect(check.detail).toMatch(/createTags sent nothing \(it needs a coach token\)/);
      expect(report.verdict).toBe('incomplete');
      expect(exitCode).toBe(1);
    }, 30_000);
  });
});
