/**
 * Probes renew a refused token as load requests do (docs/design.md §2.13): a run whose tokens
 * the target no longer takes (they expired before the probes went out, as on a loaded
 * machine where the run starts seconds after its token command ran) judges the target's
 * answers to the renewed tokens, not a 401 for the tokens' age. The probes that look for a
 * refusal (no API key, a participant on create-and-link) are sent once and renew nothing.
 */
import { mkdtemp, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { probesScenario } from '../../../src/drivers/throughput/index.js';
import { AUTH } from '../../../src/metrics/names.js';
import { PROBE_NAMES } from '../../../src/metrics/throughput-extra-names.js';
import { startTarget } from '../../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../../src/reference-service/target-types.js';
import { eventually } from '../../support/target-helpers.js';
import { checksOf, testProfile, testRun } from '../../support/throughput-helpers.js';
import { NODE } from '../../support/token-helpers.js';

let target: RunningTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

describe('probes sent with tokens the target no longer takes', () => {
  it('are sent again with the renewed tokens and judged on those answers', async () => {
    // Tokens that outlive the test: what the target refuses is only the tokens held at the start.
    target = await startTarget({ participants: 4, tokenTtlMs: 60_000 });
    const dir = await mkdtemp(join(tmpdir(), 'coachbench-probe-renewal-'));
    const script = join(dir, 'token-command.mjs');
    await writeFile(
      script,
      `const answer = await fetch(${JSON.stringify(`${target.url}/_coachbench/tokens`)}, { method: 'POST', headers: { 'x-api-key': ${JSON.stringify(target.fixtures.apiKey)} } });
const body = await answer.json();
process.stdout.write(JSON.stringify({ coachToken: body.coachToken, participants: body.participants }));
`,
    );
    const fixtures = {
      ...target.fixtures,
      coachToken: 'ct-of-an-earlier-login',
      participants: target.fixtures.participants.map((p) => ({ ...p, token: `pt-of-an-earlier-login-${p.userId}` })),
    };
    const total = await testRun(target.url, fixtures, testProfile(2_000, {}, {}), {
      tokenCommand: `${NODE} ${JSON.stringify(script)}`,
      fixturesPath: null,
    }).run(probesScenario);
    const checks = checksOf(total);
    for (const id of [
      'photo.upload',
      'photo.fieldname.override',
      'tags.link',
      'tags.existing.ignored',
      'tags.role.required',
      'auth.apikey.required',
    ] as const) {
      expect(`${id}: ${checks[id].status}`, checks[id].detail).toBe(`${id}: pass`);
    }
    // One run of the command, for the participant's first probe, which renews the coach token
    // too: the create-and-links read it at each send and go out with the renewed one.
    expect(total.count(AUTH.refreshes)).toBe(1);
    expect(total.count(AUTH.resent)).toBe(1);
    expect(total.count(AUTH.rejectedAfterRefresh)).toBe(0);
    expect(checks['auth.token.refresh'].status).toBe('pass');
    // 13 probes (3 formats, the override, 2 refusals, 2 without a valid key, the role probe,
    // 3 create-and-links, 1 without a key), and the refused first send: a request too.
    expect(total.count(PROBE_NAMES.requests)).toBe(14);
  });
});

describe('tag probes while the coach token is renewed under them', () => {
  it('send the coach token held at each request, not the one the probes started with', async () => {
    // Each of the photo probes' uploads is answered LATENCY_MS late; two fixtures re-reads
    // replace the coach token meanwhile, so the tag probes start after both. A token the run forgot (two
    // renewals back) is no longer resent with a successor: sent, it stands as a 401.
    const LATENCY_MS = 600;
    target = await startTarget({ participants: 4, tokenTtlMs: 60_000, faults: [`latency=${LATENCY_MS} on PATCH /participants/{user_id}/profile_photo`] });
    const dir = await mkdtemp(join(tmpdir(), 'coachbench-probe-coach-'));
    const path = join(dir, 'fixtures.json');
    const held = { ...target.fixtures, coachToken: 'ct-of-an-earlier-login', participants: target.fixtures.participants.map((p) => ({ ...p })) };
    await writeFile(path, JSON.stringify(held));
    const issuedCoachToken = async (): Promise<string> => {
      const answer = await request(`${target!.url}/_coachbench/tokens`, { method: 'POST', headers: { 'x-api-key': target!.fixtures.apiKey } });
      return ((await answer.body.json()) as { coachToken: string }).coachToken;
    };
    const startMs = performance.now();
    const run = testRun(target.url, held, testProfile(20_000, {}, {}), { tokenCommand: null, fixturesPath: path }).run(probesScenario);
    // A token job renaming a new file in, twice, each time until the run has read it.
    let renewedAtMs = Number.NaN;
    for (let i = 0; i < 2; i++) {
      const coachToken = await issuedCoachToken();
      await writeFile(`${path}.tmp`, JSON.stringify({ ...held, coachToken }));
      await rename(`${path}.tmp`, path);
      expect(await eventually(() => held.coachToken === coachToken, 5_000), `re-read ${i + 1}`).toBe(true);
      renewedAtMs = performance.now() - startMs;
    }
    // Both renewals came before the tag probes, which follow the photo probes' eight uploads.
    expect(renewedAtMs).toBeLessThan(8 * LATENCY_MS);
    const total = await run;
    const checks = checksOf(total);
    expect(total.count(AUTH.fixturesReloads)).toBe(2);
    for (const id of ['tags.link', 'tags.existing.ignored', 'auth.apikey.required'] as const) {
      expect(`${id}: ${checks[id].status}`, checks[id].detail).toBe(`${id}: pass`);
    }
    // No probe went out with a token the run had replaced: none was refused and sent again.
    expect(total.count(AUTH.resent)).toBe(0);
    expect(total.count(PROBE_NAMES.requests)).toBe(13);
  }, 30_000);
});
