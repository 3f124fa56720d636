/**
 * The maxima of a profile's numbers (docs/design.md §2.5) that code checks beside the schema:
 * sizes written as text (`"2MiB"`), which the schema can only match by pattern, and the loads a
 * capacity search may vary. schemas/profile.schema.json holds the same numbers as `maximum`;
 * test/contract/profile-limits.test.ts keeps the two equal.
 */

const MIB = 1024 * 1024;

/** Participants a profile may ask for (chatStreams, target, stage targets): as `serve --participants`. */
export const MAX_PARTICIPANTS = 1_000_000;
/** Chat messages per second, the run's total. */
export const MAX_MESSAGE_RATE_PER_SEC = 100_000;
/** Requests per second of photo upload or tag link, the run's total over every shard. */
export const MAX_REQUEST_RATE_PER_SEC = 1_000_000;

/** One uploaded image. */
export const MAX_IMAGE_BYTES = 16 * MIB;
/** Every image size in every format, built before the run and held for it. */
export const MAX_IMAGE_CORPUS_BYTES = 256 * MIB;
/** A stream's longest SSE line or event (`chatStreams.maxFrameBytes`). */
export const MAX_FRAME_BYTES_LIMIT = 64 * MIB;
/** A keep-alive tolerance written as a percentage of the interval. */
export const MAX_TOLERANCE_PERCENT = 1_000;

/** The profile field a capacity search varies, and the most it may set it to. */
export const SEARCH_VARIABLE_MAXIMA = {
  'chatStreams.participants': MAX_PARTICIPANTS,
  'chatStreams.messageRatePerSec': MAX_MESSAGE_RATE_PER_SEC,
  'photoUpload.ratePerSec': MAX_REQUEST_RATE_PER_SEC,
  'tagLink.ratePerSec': MAX_REQUEST_RATE_PER_SEC,
} as const;
