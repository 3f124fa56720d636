/**
 * Tag probes: a participant token must be refused (tags.role.required); with the coach token,
 * two new names must come back as two ids (tags.link), the same names again as none and a
 * mix of one existing and one new name as one id (tags.existing.ignored); and the coach
 * request without X-API-Key must be refused (auth.apikey.required).
 */
import type { FixtureParticipant } from '../../contract/fixtures.js';
import { tokenRefusedOwnUpload } from './photo-probes.js';
import type { ProbeClient } from './probe-client.js';
import { runTagPrefix } from './tag-name-pool.js';
import { judgeTags, type TagMemo, tagRequest } from './tag-workload.js';

/**
 * A participant token on create-and-link must be refused (tags.role.required). A 403 refuses a
 * known token its role; a 401 may only say the token is unknown or expired, so it counts when
 * the same token is then accepted on the participant's own upload (docs/design.md §5.4).
 */
export async function runTagRoleProbe(probe: ProbeClient, participant: FixtureParticipant, apiKey: string): Promise<void> {
  if (probe.stopped) return;
  const names = [`${runTagPrefix()}-probe-role`];
  const token = participant.token;
  const spec = tagRequest(probe.basePath, token, apiKey, participant.userId, names);
  await probe.expectRefused('tags.role.required', spec, 'probe POST new_and_link with a participant token', () =>
    tokenRefusedOwnUpload(probe, participant, token, apiKey),
  );
}

/**
 * Create-and-link with the coach token: new, repeated and mixed names; then without X-API-Key.
 * `coachToken` is read for each request: a renewal during the probes (a fixtures re-read, a
 * token command run for another request) must reach the next one (docs/design.md §2.13).
 */
export async function runTagProbes(probe: ProbeClient, participant: FixtureParticipant, apiKey: string, coachToken: () => string): Promise<void> {
  const prefix = `${runTagPrefix()}-probe`;
  const [a, b, c] = [`${prefix}-a`, `${prefix}-b`, `${prefix}-c`];
  const steps: Array<{ label: string; memo: TagMemo }> = [
    { label: 'probe POST new_and_link (2 new names)', memo: { newNames: [a, b], existing: [] } },
    { label: 'probe POST new_and_link (the same 2 names again)', memo: { newNames: [], existing: [a, b] } },
    { label: 'probe POST new_and_link (1 existing, 1 new name)', memo: { newNames: [c], existing: [a] } },
  ];
  for (const { label, memo } of steps) {
    if (probe.stopped) return;
    const spec = tagRequest(probe.basePath, coachToken(), apiKey, participant.userId, [...memo.existing, ...memo.newNames]);
    const outcome = await probe.send(spec, label);
    if (!outcome.ok) {
      if (!outcome.cut) probe.fail('tags.link', `${label}: no complete answer (${outcome.detail})`);
      return;
    }
    const verdict = judgeTags(probe.metrics, memo, outcome.inspection, label);
    // Later steps rely on the first one's names existing; without that, "existing" is unknown.
    if (!verdict.created) return;
  }

  if (probe.stopped) return;
  const noKey = tagRequest(probe.basePath, coachToken(), null, participant.userId, [`${prefix}-nokey`]);
  await probe.expectRefused('auth.apikey.required', noKey, 'probe POST new_and_link without X-API-Key');
}
