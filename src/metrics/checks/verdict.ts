/**
 * The run's verdict (docs/design.md §5.6), decided here and nowhere else: `fail` when a
 * check or threshold failed or the run failed in a way no check sees (VerdictPolicy); else
 * `incomplete` when a core check (one the profile's enabled scenarios imply) has no
 * evidence; else `pass`. A run that proved nothing about what it was asked to test is not
 * a pass, however green its other checks.
 */
import { CHECK_IDS, type CheckId } from '../../contract/check-ids.js';
import type { Profile } from '../../contract/profile/profile.js';
import type { CheckResult, ThresholdResult, Verdict } from '../../contract/report.js';

/** The checks a profile's enabled scenarios imply, in report order. */
export function coreChecks(profile: Pick<Profile, 'chatStreams' | 'photoUpload' | 'tagLink' | 'requests'>): CheckId[] {
  const core = new Set<CheckId>();
  const { chatStreams: chat, photoUpload: photo, tagLink: tags } = profile;
  if (chat.enabled && chat.participants > 0) {
    for (const id of ['stream.open', 'stream.keepalive.cadence', 'stream.stall'] as const) core.add(id);
    // Injected messages are what puts events other than KEEP_ALIVE on the streams.
    if (chat.messageRatePerSec > 0) for (const id of ['stream.session.isolation', 'stream.event.schema', 'stream.message.delivery'] as const) core.add(id);
  }
  if (photo.enabled) {
    core.add('photo.upload');
    if (photo.overrideShare > 0) core.add('photo.fieldname.override');
  }
  if (tags.enabled) {
    core.add('tags.link');
    if (tags.existingShare > 0) core.add('tags.existing.ignored');
  }
  if ((profile.requests?.kinds ?? []).some((kind) => kind.enabled)) core.add('requests.expectations');
  // Any load asked for must have been driven: a run that measured a lighter load proves less than it says.
  if (core.size > 0) core.add('load.achieved');
  return CHECK_IDS.filter((id) => core.has(id));
}

/** The core checks that were skipped (or are absent): what an `incomplete` verdict has no evidence for. */
export function missingEvidence(checks: readonly CheckResult[], core: readonly CheckId[]): CheckId[] {
  return core.filter((id) => (checks.find((check) => check.id === id)?.status ?? 'skip') === 'skip');
}

/** What fails a run whatever its checks and thresholds say (docs/design.md §5.6). */
export interface VerdictPolicy {
  /** An abortOnFail threshold stopped the load. */
  aborted?: boolean;
  /** A driver worker died under the profile's `workers.onWorkerExit: fail`. */
  workerLost?: boolean;
  /** A merge misses shards, or holds one that was interrupted or failed outside its checks. */
  shardsFailed?: boolean;
  /** A capacity search found no load step that held its SLOs. */
  noSustainableLoad?: boolean;
}

/** fail > incomplete > pass. */
export function judgeVerdict(
  checks: readonly CheckResult[],
  thresholds: readonly ThresholdResult[],
  core: readonly CheckId[],
  policy: VerdictPolicy = {},
): Verdict {
  if (Object.values(policy).some(Boolean)) return 'fail';
  if (checks.some((check) => check.status === 'fail') || thresholds.some((threshold) => threshold.status === 'fail')) return 'fail';
  return missingEvidence(checks, core).length > 0 ? 'incomplete' : 'pass';
}
