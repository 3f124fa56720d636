/**
 * The tag create-and-link throughput scenario. It needs a Coach or Connector token
 * (fixtures `coachToken` or COACHBENCH_COACH_TOKEN); without one it counts `tagLink.skipped`,
 * leaves the reason in the `tagLink.skipped` samples and sends nothing, so tags.link and
 * tags.existing.ignored have no load evidence (the role probe still runs).
 */

import type { TagLinkSettings } from '../../contract/profile/profile.js';
import { runNotFatal, type Scenario, type ScenarioContext } from '../../engine/scenario.js';
import { TAG_EXTRA } from '../../metrics/throughput-extra-names.js';
import { splitApiBase } from '../api-base.js';
import { prepareWorkloadModel, runWorkload } from './run-workload.js';
import { runTagPrefix, TagNamePool } from './tag-name-pool.js';
import { createTagWorkload } from './tag-workload.js';

/** Why the scenario sends nothing when the fixtures hold no coach token. */
export const NO_COACH_TOKEN_REASON =
  'tag create-and-link needs a Coach or Connector token (fixtures "coachToken" or COACHBENCH_COACH_TOKEN); none given, scenario skipped';

async function runTagLink(ctx: ScenarioContext, settings: TagLinkSettings): Promise<void> {
  const { coachToken, participants, apiKey } = ctx.fixtures;
  if (!coachToken) {
    ctx.metrics.inc(TAG_EXTRA.skipped);
    ctx.metrics.sample(TAG_EXTRA.skipped, NO_COACH_TOKEN_REASON);
    return;
  }
  if (participants.length === 0) return;
  const workload = createTagWorkload({
    basePath: splitApiBase(ctx.apiBase).basePath,
    apiKey,
    coachToken: () => ctx.fixtures.coachToken ?? coachToken,
    participants,
    pool: new TagNamePool(runTagPrefix()),
    tagsPerRequest: settings.tagsPerRequest,
    existingShare: settings.existingShare,
  });
  await runWorkload(ctx, settings, workload);
}

/** POST /admin/tags/new_and_link/participant load; does nothing when the profile disables it. */
export const tagLinkScenario: Scenario = {
  name: 'tagLink',
  prepare: (profile) => prepareWorkloadModel(profile.tagLink),
  run: async (ctx) => {
    const settings = ctx.profile.tagLink;
    if (!settings.enabled || ctx.signal.aborted) return;
    await runNotFatal(ctx, 'tagLink', 'scenario', () => runTagLink(ctx, settings));
  },
};
