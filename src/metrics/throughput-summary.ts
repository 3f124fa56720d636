/**
 * Report summaries of the photo-upload and tag-link scenarios (report.json
 * `scenarios.photoUpload` / `scenarios.tagLink`), derived only from the run's total
 * MetricSet, so a merged set of shards yields the same numbers as one big run.
 */
import type { PhotoUploadSettings, TagLinkSettings, ThroughputSettings } from '../contract/profile/profile.js';
import type { HistogramSummary, PhotoUploadSummary, TagLinkSummary, ThroughputSummary } from '../contract/report.js';
import { createHistogram, summarizeHistogram } from './histogram.js';
import type { MetricSet } from './metric-set.js';
import { type ThroughputScenario, throughputNames } from './names.js';
import { PHOTO_EXTRA, TAG_EXTRA } from './throughput-extra-names.js';

/** Counters under `prefix`, keyed by the rest of their name. */
function countersUnder(counters: Readonly<Record<string, number>>, prefix: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(counters)) {
    if (name.startsWith(prefix)) out[name.slice(prefix.length)] = value;
  }
  return out;
}

/**
 * The mean arrival rate the open model's schedule asked for: the pacer ramps linearly from
 * ratePerSec to rampToPerSec, so its mean is the midpoint. Null for the closed model.
 */
export function requestedRatePerSec(settings: ThroughputSettings): number | null {
  return settings.model === 'open' ? (settings.ratePerSec + settings.rampToPerSec) / 2 : null;
}

/** Summarises a histogram without creating it in `total` when the scenario recorded none. */
function summaryOf(total: MetricSet, name: string): HistogramSummary {
  return summarizeHistogram(total.hasHistogram(name) ? total.histogram(name) : createHistogram());
}

function buildThroughputSummary(total: MetricSet, scenario: ThroughputScenario, settings: ThroughputSettings): ThroughputSummary {
  const names = throughputNames(scenario);
  // MetricSet lists its counters only through encode(); this runs once per report.
  const { counters } = total.encode();
  const requests = total.count(names.requests);
  const errors = total.count(names.errors);
  const activeSeconds = total.peakOf(names.activeMs) / 1_000;
  const statusPrefix = names.status('');
  const errorPrefix = names.errorKind('');
  return {
    model: settings.model,
    requests,
    errors,
    errorRate: requests > 0 ? errors / requests : 0,
    errorsByKind: countersUnder(counters, errorPrefix),
    statusCodes: countersUnder(counters, statusPrefix),
    throughputPerSec: activeSeconds > 0 ? requests / activeSeconds : 0,
    requestedRatePerSec: requestedRatePerSec(settings),
    lateSlots: total.count(names.lateSlots),
    droppedSlots: total.count(names.droppedSlots),
    latencyMs: summaryOf(total, names.latencyUs),
    serviceTimeMs: summaryOf(total, names.serviceTimeUs),
    activeSeconds,
  };
}

/** `scenarios.photoUpload` of report.json. */
export function buildPhotoUploadSummary(total: MetricSet, settings: PhotoUploadSettings): PhotoUploadSummary {
  return {
    ...buildThroughputSummary(total, 'photoUpload', settings),
    overrideRequests: total.count(PHOTO_EXTRA.overrideRequests),
    bytesSent: total.count(PHOTO_EXTRA.bytesSent),
  };
}

/** `scenarios.tagLink` of report.json. */
export function buildTagLinkSummary(total: MetricSet, settings: TagLinkSettings): TagLinkSummary {
  return {
    ...buildThroughputSummary(total, 'tagLink', settings),
    tagsCreated: total.count(TAG_EXTRA.tagsCreated),
    existingReturned: total.count(TAG_EXTRA.existingReturned),
  };
}
