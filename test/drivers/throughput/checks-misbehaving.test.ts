import { describe, expect, it } from 'vitest';
import { CHECK_IDS, type CheckId } from '../../../src/contract/check-ids.js';
import { photoUploadScenario, probesScenario, tagLinkScenario } from '../../../src/drivers/throughput/index.js';
import { PROBE_NAMES } from '../../../src/metrics/throughput-extra-names.js';
import { type Misbehaviour, startFakeTarget } from '../../support/fake-throughput-target.js';
import { checksOf, testProfile, testRun } from '../../support/throughput-helpers.js';

/** The request-level checks: every check that is not about streams or the generator. */
// auth.token.refresh needs expiring tokens: its pass and its failures are proven in test/orchestration/token-refresh*.test.ts.
const REQUEST_CHECKS: CheckId[] = CHECK_IDS.filter(
  // requests.expectations judges request kinds, which these photo and tag runs have none of (test/orchestration/requests-run.test.ts).
  (id) => !id.startsWith('stream.') && id !== 'generator.healthy' && id !== 'auth.token.refresh' && id !== 'load.achieved' && id !== 'requests.expectations',
);

/** Probes plus a short open-model load of both scenarios against a fake target. */
async function runAgainst(bad: Misbehaviour) {
  const fake = await startFakeTarget(bad);
  try {
    const profile = testProfile(800, { ratePerSec: 25, overrideShare: 0.5 }, { ratePerSec: 25, tagsPerRequest: 4, existingShare: 0.5 });
    const total = await testRun(fake.url, fake.fixtures, profile).run(probesScenario, photoUploadScenario, tagLinkScenario);
    const checks = checksOf(total);
    const failing = REQUEST_CHECKS.filter((id) => checks[id].status === 'fail');
    return { checks, failing, total };
  } finally {
    await fake.close();
  }
}

describe('request-level checks against a correct fake target', () => {
  it('every request-level check passes, so each failure below is the switch flipped', async () => {
    const { checks } = await runAgainst({});
    for (const id of REQUEST_CHECKS) expect(`${id}: ${checks[id].status} ${checks[id].detail}`).toBe(`${id}: pass ${checks[id].detail}`);
  });
});

describe('tags.role.required when the refusal is a 401', () => {
  it('passes where the same token is accepted on its own upload: the 401 was the role', async () => {
    const { checks, failing } = await runAgainst({ roleRefusedWith401: true });
    expect(failing).toEqual([]);
    expect(checks['tags.role.required'].status, checks['tags.role.required'].detail).toBe('pass');
  });

  it('is no evidence when the token is refused everywhere: a wrong participant token shows no role rule', async () => {
    const fake = await startFakeTarget({});
    try {
      // Only tags run, so the coach token's accepted create-and-links are the run's only accepted answers.
      const profile = testProfile(600, { enabled: false }, { ratePerSec: 10 });
      const fixtures = { ...fake.fixtures, participants: fake.fixtures.participants.map((p) => ({ ...p, token: `expired-${p.token}` })) };
      const total = await testRun(fake.url, fixtures, profile).run(probesScenario, tagLinkScenario);
      const checks = checksOf(total);
      expect(checks['tags.link'].status).toBe('pass');
      expect(checks['tags.role.required'].status, checks['tags.role.required'].detail).toBe('skip');
      expect(total.samplesOf(PROBE_NAMES.samples).join('\n')).toMatch(
        /tags\.role\.required: .* answered 401, no evidence: the same token's own photo upload was answered 401 too/,
      );
    } finally {
      await fake.close();
    }
  });
});

describe('each misbehaviour fails exactly its check', () => {
  it.each([
    ['accepts requests without X-API-Key', 'auth.apikey.required', { acceptWithoutKey: true }],
    ['returns ids for existing tag names', 'tags.existing.ignored', { returnExisting: true }],
    ['answers errors as text/plain', 'errors.problem_json', { textErrors: true }],
    ['ignores the `name` override', 'photo.fieldname.override', { ignoreOverride: true }],
    ['lets participants create tags', 'tags.role.required', { participantsMayTag: true }],
    ['omits Cache-Control on photo answers', 'photo.upload', { photoWithoutCacheControl: true }],
    ['answers create-and-link with an object', 'tags.link', { tagsNotArray: true }],
  ] as Array<[string, CheckId, Misbehaviour]>)('%s → %s fails', async (_name, check, bad) => {
    const { failing, checks } = await runAgainst(bad);
    expect(failing).toEqual([check]);
    expect(checks[check].detail).toMatch(/observations failed; first: \S/);
  });
});
