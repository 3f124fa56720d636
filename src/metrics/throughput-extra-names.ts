/**
 * Metric names of the photo-upload, tag-link and probes scenarios beyond the shared
 * `throughputNames` (src/metrics/names.ts), derived from the registry
 * (src/metrics/registry/throughput-metrics.ts).
 */
import { throughputNames } from './names.js';
import { namesOf } from './registry/metric-decl.js';
import { PHOTO_UPLOAD, PROBES, TAG_LINK, type ThroughputKey } from './registry/throughput-metrics.js';

/** Open model: slots the schedule held for the run's remaining time. */
export const scheduledSlotsName = (scenario: ThroughputKey): string => throughputNames(scenario).scheduledSlots;

/** Requests still unanswered when the drain after the run's end ran out, and cut. */
export const cutAtEndName = (scenario: ThroughputKey | 'probes'): string => (scenario === 'probes' ? PROBE_NAMES.cutAtEnd : throughputNames(scenario).cutAtEnd);

/** Photo-upload counters (the shared ones too). */
export const PHOTO_EXTRA = namesOf(PHOTO_UPLOAD);

/** Tag-link counters (the shared ones too). */
export const TAG_EXTRA = namesOf(TAG_LINK);

/** Counters and samples of the probes scenario. */
export const PROBE_NAMES = {
  ...namesOf(PROBES),
  /** The probe log is in the samples under this key. */
  samples: 'probes',
} as const;
