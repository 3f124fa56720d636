/**
 * Which 401 counts against a renewal (docs/design.md §2.13): the one to a token the renewal
 * issued, never one to the token it replaced. Against a target that answers slowly, a request
 * sent with the old token while the token command runs is answered 401 after the renewal has
 * ended, inside the second a fresh token's refusal would count in: it is sent again with the
 * renewed token (accepted), and auth.token.refresh passes.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { Credentials, sendRenewing } from '../../../src/engine/auth/credentials.js';
import type { RunFixtures } from '../../../src/engine/scenario.js';
import { buildAuthSummary, tokenRefreshCheck } from '../../../src/metrics/auth-summary.js';
import { MetricSet } from '../../../src/metrics/metric-set.js';
import { AUTH } from '../../../src/metrics/names.js';
import { startTarget } from '../../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../../src/reference-service/target-types.js';
import { eventually, sleep } from '../../support/target-helpers.js';
import { NODE } from '../../support/token-helpers.js';

/** How late the target answers a chat-session read, its refusals included. */
const LATENCY_MS = 1_500;
/**
 * When, after the second request was sent, the token command is let finish: its 401 then
 * arrives after the renewal, inside a second of its end. The command takes a while more to
 * end the renewal (tens of ms when idle, 650 under a CPU burner, where 1 s left 500 ms for
 * it), so the refusal is due 850 ms after the command is let go: room for either.
 */
const RENEWAL_ENDS_AFTER_MS = 650;

let target: RunningTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

type Read = Promise<{ answer: number; resent: boolean }>;

interface Attempt {
  authorization: string;
  sentMs: number;
  answeredMs: number;
  status: number;
}

describe('a 401 answered just after a renewal ended', () => {
  it('counts against the renewal only when the request carried the renewed token', async () => {
    target = await startTarget({ participants: 2, tokenTtlMs: 60_000, faults: [`latency=${LATENCY_MS} on GET /participants/{user_id}/chat_sessions/{id}`] });
    const dir = await mkdtemp(join(tmpdir(), 'coachbench-renewal-attribution-'));
    // The command asks the target for fresh tokens once the test lets it (the marker file), so
    // the renewal ends at a moment the test chooses, while the second request is in flight.
    const marker = join(dir, 'go');
    const script = join(dir, 'token-command.mjs');
    await writeFile(
      script,
      `import { existsSync } from 'node:fs';
while (!existsSync(${JSON.stringify(marker)})) await new Promise((resolve) => setTimeout(resolve, 10));
const answer = await fetch(${JSON.stringify(`${target.url}/_coachbench/tokens`)}, { method: 'POST', headers: { 'x-api-key': ${JSON.stringify(target.fixtures.apiKey)} } });
const body = await answer.json();
process.stdout.write(JSON.stringify({ coachToken: body.coachToken, participants: body.participants }));
`,
    );
    const [seeded] = target.fixtures.participants;
    const old = 'pt-of-an-earlier-login';
    const held: RunFixtures = { ...target.fixtures, participants: [{ ...seeded!, token: old }] };
    const metrics = new MetricSet();
    const credentials = new Credentials(held, { tokenCommand: `${NODE} ${JSON.stringify(script)}`, fixturesPath: null }, () => metrics);
    const url = `${target.url}/api/v1/participants/${seeded!.userId}/chat_sessions/${seeded!.chatSessionIds[0]}`;
    const startMs = performance.now();
    const at = (): number => performance.now() - startMs;
    let renewedMs = Number.NaN;

    /** Sends a read, renewing as the drivers do; `onAnswer` hears each answer as it arrives. */
    const read = (attempts: Attempt[], onAnswer?: (attempt: Attempt) => void): Read =>
      sendRenewing(
        credentials,
        { 'x-api-key': held.apiKey, authorization: `Bearer ${old}` },
        async (headers) => {
          const sentMs = at();
          const answer = await request(url, { headers });
          await answer.body.dump();
          const attempt = { authorization: headers.authorization!, sentMs, answeredMs: at(), status: answer.statusCode };
          attempts.push(attempt);
          onAnswer?.(attempt);
          return attempt.status;
        },
        (status) => status,
      );

    // The first read's 401 starts the renewal; the second read goes out with the old token
    // while the command runs, and the command is let finish before the target answers it.
    const first: Attempt[] = [];
    const second: Attempt[] = [];
    // Wrapped, so that awaiting the start does not wait for the read itself.
    let startSecond: (started: { read: Read }) => void = () => undefined;
    const secondStarted = new Promise<{ read: Read }>((resolve) => {
      startSecond = resolve;
    });
    let started = false;
    const firstRead = read(first, (attempt) => {
      if (attempt.status !== 401 || started) return;
      started = true;
      startSecond({ read: read(second) });
      void (async () => {
        await sleep(RENEWAL_ENDS_AFTER_MS);
        await writeFile(marker, '');
        await eventually(() => held.participants[0]!.token !== old, 5_000);
        renewedMs = at();
      })();
    });
    const answers = [await firstRead, await (await secondStarted).read];
    expect(answers).toEqual([
      { answer: 200, resent: true },
      { answer: 200, resent: true },
    ]);

    const renewed = `Bearer ${held.participants[0]!.token}`;
    expect(renewed).not.toBe(`Bearer ${old}`);
    // The case in question: sent with the old token before the renewal ended, refused just
    // after it ended (within the second a renewed token's refusal counts in).
    const [refused, again] = second;
    expect(refused!.authorization).toBe(`Bearer ${old}`);
    expect(refused!.status).toBe(401);
    expect(refused!.sentMs).toBeLessThan(renewedMs);
    expect(refused!.answeredMs).toBeGreaterThan(renewedMs);
    expect(refused!.answeredMs - renewedMs).toBeLessThan(1_000);
    // Sent again at once with the renewed token, and accepted.
    expect(again).toMatchObject({ authorization: renewed, status: 200 });
    expect(first.map((a) => [a.authorization, a.status])).toEqual([
      [`Bearer ${old}`, 401],
      [renewed, 200],
    ]);

    expect(metrics.count(AUTH.refreshes)).toBe(1);
    expect(metrics.count(AUTH.resent)).toBe(2);
    expect(metrics.count(AUTH.rejectedAfterRefresh)).toBe(0);
    expect(tokenRefreshCheck(buildAuthSummary(metrics)).status).toBe('pass');
    credentials.close();
  }, 30_000);
});
