/**
 * The photo-upload throughput scenario: builds the image corpus and its multipart bodies
 * once, then drives PATCH profile_photo in the profile's workload model until the run ends.
 */
import type { PhotoUploadSettings } from '../../contract/profile/profile.js';
import { runNotFatal, type Scenario, type ScenarioContext } from '../../engine/scenario.js';
import { splitApiBase } from '../api-base.js';
import { buildImageCorpusAsync } from './images/image-corpus.js';
import { createPhotoWorkload } from './photo-workload.js';
import { prepareWorkloadModel, runWorkload } from './run-workload.js';

async function runPhotoUpload(ctx: ScenarioContext, settings: PhotoUploadSettings): Promise<void> {
  const { participants } = ctx.fixtures;
  if (participants.length === 0 || settings.imageSizes.length === 0 || settings.formats.length === 0) {
    ctx.metrics.sample('photoUpload', 'not run: no participants, image sizes or formats');
    return;
  }
  const corpus = await buildImageCorpusAsync(settings.formats, settings.imageSizes, 1, ctx.signal);
  if (ctx.signal.aborted) return;
  const workload = createPhotoWorkload({
    basePath: splitApiBase(ctx.apiBase).basePath,
    apiKey: ctx.fixtures.apiKey,
    participants,
    corpus,
    overrideShare: settings.overrideShare,
  });
  await runWorkload(ctx, settings, workload);
}

/** PATCH /participants/{user_id}/profile_photo load; does nothing when the profile disables it. */
export const photoUploadScenario: Scenario = {
  name: 'photoUpload',
  prepare: (profile) => prepareWorkloadModel(profile.photoUpload),
  run: async (ctx) => {
    const settings = ctx.profile.photoUpload;
    if (!settings.enabled || ctx.signal.aborted) return;
    await runNotFatal(ctx, 'photoUpload', 'scenario', () => runPhotoUpload(ctx, settings));
  },
};
