/**
 * Probes renew a refused token as load requests do (docs/design.md §2.13): a run whose tokens
 * the target no longer takes (they expired before the probes went out, as on a loaded
 * machine where the run starts seconds after its token command ran) judges the target's
 * answers to the renewed tokens, not a 401 for the tokens' age. The probes that look for a
 * refusal (no API key, a participant on create-and-link) are sent once and renew nothing.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { probesScenario } from '../../../src/drivers/throughput/index.js';
import { AUTH } from '../../../src/metrics/names.js';
import { PROBE_NAMES } from '../../../src/metrics/throughput-extra-names.js';
import { startTarget } from '../../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../../src/reference-service/target-types.js';
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
    // One run of the command, for the participant's first probe; the three create-and-links,
    // which hold the coach token the probes started with, each get its successor with no run.
    expect(total.count(AUTH.refreshes)).toBe(1);
    expect(total.count(AUTH.resent)).toBe(4);
    expect(total.count(AUTH.rejectedAfterRefresh)).toBe(0);
    expect(checks['auth.token.refresh'].status).toBe('pass');
    // 13 probes (3 formats, the override, 2 refusals, 2 without a valid key, the role probe,
    // 3 create-and-links, 1 without a key), and the 4 refused first sends: requests too.
    expect(total.count(PROBE_NAMES.requests)).toBe(17);
  });
});
