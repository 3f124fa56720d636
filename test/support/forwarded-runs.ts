/**
 * The setting of the tests that put something between a run and the reference target (a
 * recording forwarder, a proxy): the target and its fixtures file, a short open-model profile
 * with uploads and tags beside the streams, and a closed-model-only profile.
 */
import { closedOnlyProfile, profileFile, quickProfile } from './profiles.js';
import { startTargetWithFixtures, type TargetWithFixtures } from './target-helpers.js';

export interface ForwardedRuns extends TargetWithFixtures {
  /** 2.5 s of streams with open-model uploads and tags at 10/s each. */
  profile: string;
  /**
   * The closed model alone: it sends as fast as a forwarder in the test's process answers, so
   * its run is about headers only (the forwarder, not the target, would set the pace of the rest).
   */
  closedProfile: string;
}

/** Starts the target (`participants`, 2 sessions each, KEEP_ALIVE every 500 ms) and writes the files in a new temp folder. */
export async function startForwardedRuns(prefix: string, participants: number): Promise<ForwardedRuns> {
  const { dir, target, fixtures } = await startTargetWithFixtures({ prefix }, { participants });
  const profile = await profileFile(
    dir,
    'profile',
    quickProfile({
      duration: '2500ms',
      photoUpload: { enabled: true, model: 'open', ratePerSec: 10, imageSizes: ['2KiB'] },
      tagLink: { enabled: true, model: 'open', ratePerSec: 10 },
      generator: { maxEventLoopDelayP99: '2s' },
    }),
  );
  const closedProfile = await profileFile(dir, 'closed', closedOnlyProfile());
  return { dir, target, fixtures, profile, closedProfile };
}
