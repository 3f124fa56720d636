/**
 * Metric names of the photo-upload and tag-link scenarios beyond the shared
 * `throughputNames` (src/metrics/names.ts): counters the drivers count and the summaries read.
 */
import type { ThroughputScenario } from './names.js';

/**
 * Open model: slots the schedule held for the run's remaining time. Started + dropped slots
 * make up all of them except those still unreached when the run stopped.
 */
export const scheduledSlotsName = (scenario: ThroughputScenario): string => `${scenario}.scheduledSlots`;

/**
 * Requests still unanswered when the drain after the run's end ran out, and cut: neither
 * requests nor errors nor check evidence (the target was not given its timeout to answer).
 */
export const cutAtEndName = (scenario: ThroughputScenario | 'probes'): string => `${scenario}.cutAtEnd`;

/** Photo-upload counters beyond throughputNames('photoUpload'). */
export const PHOTO_EXTRA = {
  /** Uploads that used the `name` override instead of the default `filename` part. */
  overrideRequests: 'photoUpload.overrideRequests',
  /** Multipart body bytes of completed or failed uploads. */
  bytesSent: 'photoUpload.bytesSent',
} as const;

/** Tag-link counters beyond throughputNames('tagLink'). */
export const TAG_EXTRA = {
  /** New names the target confirmed by returning an id for each. */
  tagsCreated: 'tagLink.tagsCreated',
  /** Already-existing names sent (the `existingShare` of the profile, once some exist). */
  existingSent: 'tagLink.existingSent',
  /** Ids returned beyond the number of new names in a request that held existing names. */
  existingReturned: 'tagLink.existingReturned',
  /** 1 when the scenario did not run (no coach token); the reason is in samples under the same key. */
  skipped: 'tagLink.skipped',
} as const;

/** Counters and samples of the probes scenario. */
export const PROBE_NAMES = {
  /** Probe requests sent (not load: never counted in photoUpload/tagLink requests). */
  requests: 'probes.requests',
  /** 1 when the probes ran; the probe log is in samples under `probes`. */
  ran: 'probes.ran',
  samples: 'probes',
} as const;
