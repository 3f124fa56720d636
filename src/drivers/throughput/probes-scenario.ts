/**
 * The probes scenario: runs once at the start of a run, a handful of sequential requests
 * that each prove one request-level check (photo.*, tags.*, auth.apikey.required,
 * errors.problem_json), while the load scenarios measure. It gates itself on the profile:
 * photo probes when photoUpload is enabled, tag probes when tagLink is; nothing when neither.
 */

import type { FixtureParticipant } from '../../contract/fixtures.js';
import { runNotFatal, type Scenario, type ScenarioContext } from '../../engine/scenario.js';
import { PROBE_NAMES } from '../../metrics/throughput-extra-names.js';
import { runPhotoAuthProbes, runPhotoProbes } from './photo-probes.js';
import { ProbeClient } from './probe-client.js';
import { runTagProbes, runTagRoleProbe } from './tag-probes.js';

async function runProbes(ctx: ScenarioContext): Promise<void> {
  const { photoUpload, tagLink } = ctx.profile;
  const participant: FixtureParticipant | undefined = ctx.fixtures.participants[0];
  if ((!photoUpload.enabled && !tagLink.enabled) || participant === undefined || ctx.signal.aborted) return;
  const timeoutMs = Math.max(photoUpload.enabled ? photoUpload.timeoutMs : 0, tagLink.enabled ? tagLink.timeoutMs : 0);
  const probe = new ProbeClient(ctx, timeoutMs);
  const { apiKey } = ctx.fixtures;
  probe.metrics.inc(PROBE_NAMES.ran);

  if (photoUpload.enabled) {
    await runPhotoProbes(probe, participant, apiKey, photoUpload.formats);
    await runPhotoAuthProbes(probe, participant, apiKey);
  }
  if (tagLink.enabled) {
    await runTagRoleProbe(probe, participant, apiKey);
    const first = ctx.fixtures.coachToken;
    // The fixtures object is where renewals put the coach token: read it at each probe.
    if (first) await runTagProbes(probe, participant, apiKey, () => ctx.fixtures.coachToken ?? first);
    else probe.log('tag probes: no coach token (fixtures coachToken or COACHBENCH_COACH_TOKEN); tags.link and tags.existing.ignored not probed');
  }
}

/** Runs the probes once and returns; never throws (a failed probe is check evidence). */
export const probesScenario: Scenario = {
  name: 'probes',
  // A bug here shows in the probe log.
  run: (ctx) => runNotFatal(ctx, PROBE_NAMES.samples, 'probes', () => runProbes(ctx)),
};
