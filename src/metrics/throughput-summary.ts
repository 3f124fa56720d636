/**
 * Report summaries of the photo-upload and tag-link scenarios (report.json
 * `scenarios.photoUpload` / `scenarios.tagLink`), derived only from the run's total
 * MetricSet, so a merged set of shards yields the same numbers as one big run. The metric
 * fields are the registry's (src/metrics/registry/throughput-metrics.ts); this adds the figures.
 */
import type { PhotoUploadSettings, RequestsSettings, TagLinkSettings, ThroughputSettings } from '../contract/profile/profile.js';
import type { HistogramSummary, PhotoUploadSummary, RequestKindSummary, TagLinkSummary } from '../contract/report.js';
import { createHistogram, summarizeHistogram } from './histogram.js';
import type { MetricSet } from './metric-set.js';
import { type ThroughputKey, throughputNames } from './names.js';
import { group, type MetricGroup } from './registry/metric-decl.js';
import { reportFields } from './registry/report-fields.js';
import { PHOTO_UPLOAD, requestKindKey, TAG_LINK, throughputShared } from './registry/throughput-metrics.js';

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

function buildThroughputSummary(total: MetricSet, metrics: MetricGroup, scenario: ThroughputKey, settings: ThroughputSettings) {
  const names = throughputNames(scenario);
  const requests = total.count(names.requests);
  const errors = total.count(names.errors);
  const activeSeconds = total.peakOf(names.activeMs) / 1_000;
  const figures = {
    errorRate: requests > 0 ? errors / requests : 0,
    throughputPerSec: activeSeconds > 0 ? requests / activeSeconds : 0,
    requestedRatePerSec: requestedRatePerSec(settings),
    activeSeconds,
  };
  // The registry test holds these fields to PhotoUploadSummary and TagLinkSummary, path for path.
  return { model: settings.model, ...reportFields(total, [metrics], figures, (name) => summaryOf(total, name)) };
}

/** `scenarios.photoUpload` of report.json. */
export function buildPhotoUploadSummary(total: MetricSet, settings: PhotoUploadSettings): PhotoUploadSummary {
  return buildThroughputSummary(total, PHOTO_UPLOAD, 'photoUpload', settings) as unknown as PhotoUploadSummary;
}

/** `scenarios.tagLink` of report.json. */
export function buildTagLinkSummary(total: MetricSet, settings: TagLinkSettings): TagLinkSummary {
  return buildThroughputSummary(total, TAG_LINK, 'tagLink', settings) as unknown as TagLinkSummary;
}

/**
 * `scenarios.requests` of report.json (docs/design.md §2.15): one summary per request kind,
 * the same fields as photo upload's from the same declarations under `requests.<name>.`.
 */
export function buildRequestsSummary(total: MetricSet, settings: RequestsSettings): Record<string, RequestKindSummary> {
  const out: Record<string, RequestKindSummary> = {};
  // A kind switched off is left out, as a built-in scenario that is off reads null.
  for (const kind of settings.kinds.filter((one) => one.enabled)) {
    const key = requestKindKey(kind.name);
    const fields = buildThroughputSummary(total, group(`${key}.`, throughputShared(key)), key, kind) as unknown as RequestKindSummary;
    out[kind.name] = { ...fields, method: kind.method, path: kind.path, share: kind.share };
  }
  return out;
}
