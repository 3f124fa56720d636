/**
 * `bad-json=PCT on METHOD /path` against the embedded target (docs/design.md §4.13): a short
 * run shows a body that is not JSON failing the check that judges that route's bodies, a
 * request kind's `requests.expectations` (naming the kind), `photo.upload` and `tags.link`, where the same
 * run without the fault passes them.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../support/bin-helpers.js';
import { writeProfile } from '../support/profiles.js';
import { failures, runProfile, statusOf } from '../support/run-helpers.js';

const SESSION_SCHEMA = { type: 'object', required: ['id'] };

/** Two kinds judged by a schema and one by its JSON media type alone, 2 s of load at 10 req/s, no streams. */
function kindsProfile(faults: string[]): Record<string, unknown> {
  return {
    name: 'route-bad-json-kinds',
    duration: '2s',
    warmup: '0s',
    target: { participants: 10, sessionsPerParticipant: 2, faults },
    chatStreams: { enabled: false },
    generator: { maxEventLoopDelayP99: '250ms' },
    requests: {
      ratePerSec: 10,
      kinds: [
        { name: 'getSession', method: 'GET', path: '/participants/{userId}/chat_sessions/{sessionId}', expect: { status: [200], schema: SESSION_SCHEMA } },
        {
          name: 'getSessionTyped',
          method: 'GET',
          path: '/participants/{userId}/chat_sessions/{sessionId}',
          expect: { status: [200], mediaType: 'application/json' },
        },
        {
          name: 'searchSessions',
          method: 'POST',
          path: '/participants/{userId}/chat_sessions/search',
          body: { limit: 2 },
          expect: { status: [200], schema: { type: 'object' } },
        },
      ],
    },
  };
}

/** Photo uploads or tag links alone: 2 s at 10/s. */
function throughputProfile(scenario: 'photo' | 'tags', faults: string[]): Record<string, unknown> {
  return {
    name: `route-bad-json-${scenario}`,
    duration: '2s',
    warmup: '0s',
    target: { participants: 10, sessionsPerParticipant: 2, faults },
    chatStreams: { enabled: false },
    photoUpload: scenario === 'photo' ? { enabled: true, model: 'open', ratePerSec: 10, imageSizes: ['1KiB'], overrideShare: 0 } : { enabled: false },
    tagLink: scenario === 'tags' ? { enabled: true, model: 'open', ratePerSec: 10 } : { enabled: false },
    generator: { maxEventLoopDelayP99: '250ms' },
  };
}

// Two runs a test (healthy, then faulted) on a loaded machine.
const TWO_RUNS_MS = 60_000;

describe('bad-json=PCT on METHOD /path in a run', { timeout: TWO_RUNS_MS }, () => {
  it('fails requests.expectations naming the kinds of that route (body-invalid), schema or JSON media type; without the fault it passes', async () => {
    const healthy = await runProfile(kindsProfile([]));
    expect(statusOf(healthy.report)['requests.expectations'], failures(healthy.report).join('\n')).toBe('pass');

    const { report } = await runProfile(kindsProfile(['bad-json=100 on GET /participants/{user_id}/chat_sessions/{id}']));
    const kinds = report.scenarios.requests ?? {};
    const broken = kinds.getSession!;
    expect(broken.requests).toBeGreaterThan(0);
    expect(broken.errorsByKind).toEqual({ 'body-invalid': broken.requests });
    // The answers were whole: status 200 every time, only the body failed.
    expect(broken.statusCodes).toEqual({ '200': broken.requests });
    // No schema: the JSON media type it expects is enough to fail a body that does not parse.
    const typed = kinds.getSessionTyped!;
    expect(typed.requests).toBeGreaterThan(0);
    expect(typed.errorsByKind).toEqual({ 'body-invalid': typed.requests });
    expect(kinds.searchSessions!.requests).toBeGreaterThan(0);
    expect(kinds.searchSessions!.errors).toBe(0);
    const check = report.checks.find((c) => c.id === 'requests.expectations')!;
    expect(check.status).toBe('fail');
    expect(check.detail).toContain(`getSession: ${broken.requests}`);
    expect(check.detail).toContain(`getSessionTyped: ${typed.requests}`);
    expect(check.detail).not.toContain('searchSessions: ');
    expect(report.target.faults).toEqual(['bad-json=100 on GET /participants/{user_id}/chat_sessions/{id}']);
  });

  it.each([
    { scenario: 'photo', checkId: 'photo.upload', route: 'PATCH /participants/{user_id}/profile_photo', detail: 'body is not valid JSON' },
    { scenario: 'tags', checkId: 'tags.link', route: 'POST /admin/tags/new_and_link/participant', detail: 'answer is not an array of distinct tag ids' },
  ] as const)('fails $checkId (body-invalid) on $route; without the fault it passes', async ({ scenario, checkId, route, detail }) => {
    const healthy = await runProfile(throughputProfile(scenario, []));
    expect(statusOf(healthy.report)[checkId], failures(healthy.report).join('\n')).toBe('pass');

    const { report } = await runProfile(throughputProfile(scenario, [`bad-json=100 on ${route}`]));
    const measured = scenario === 'photo' ? report.scenarios.photoUpload! : report.scenarios.tagLink!;
    expect(measured.requests).toBeGreaterThan(0);
    expect(measured.errorsByKind).toEqual({ 'body-invalid': measured.requests });
    const check = report.checks.find((c) => c.id === checkId)!;
    expect(check.status).toBe('fail');
    expect(check.detail).toContain(detail);
  });
});

describe("a profile's target.faults (bin/, built dist/)", () => {
  it('refuses a scoped bad-json on a stream route: exit 2, one line, no load', async () => {
    const { path, dir } = await writeProfile(kindsProfile(['bad-json=5 on GET /participants/{user_id}/chat_sessions/{id}/stream']));
    const result = await runBin(['run', '--profile', path, '--out', join(dir, 'refused'), '--quiet'], { deadlineMs: 30_000 });
    expect(result.code, result.stderr).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      'profile target: --fault bad-json on GET /participants/:/chat_sessions/:/stream: a stream route answers with SSE frames, not a JSON body',
    );
  }, 40_000);
});
