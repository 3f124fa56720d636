import { describe, expect, it } from 'vitest';
import { recordMs } from '../../../src/metrics/histogram.js';
import { MetricSet } from '../../../src/metrics/metric-set.js';
import { throughputNames } from '../../../src/metrics/names.js';
import { PHOTO_EXTRA, TAG_EXTRA } from '../../../src/metrics/throughput-extra-names.js';
import { buildPhotoUploadSummary, buildTagLinkSummary } from '../../../src/metrics/throughput-summary.js';
import { testProfile } from '../../support/throughput-helpers.js';

const photo = throughputNames('photoUpload');

function shard(requests: number, errors: number, activeMs: number): MetricSet {
  const set = new MetricSet();
  set.inc(photo.requests, requests);
  set.inc(photo.errors, errors);
  set.inc(photo.status(200), requests - errors);
  set.inc(photo.status(500), errors);
  set.inc(photo.errorKind('status:500'), errors);
  set.inc(photo.lateSlots, 2);
  set.inc(PHOTO_EXTRA.bytesSent, requests * 1_000);
  set.inc(PHOTO_EXTRA.overrideRequests, 3);
  set.peak(photo.activeMs, activeMs);
  for (let i = 0; i < requests; i++) recordMs(set.histogram(photo.latencyUs), 10 + i);
  return set;
}

describe('throughput summaries', () => {
  const profile = testProfile(10_000, { ratePerSec: 40, rampToPerSec: 80 });

  it('derives rates, error share, status codes and kinds from the counters', () => {
    const summary = buildPhotoUploadSummary(shard(100, 5, 4_000), profile.photoUpload);
    expect(summary).toMatchObject({
      model: 'open',
      requests: 100,
      errors: 5,
      errorRate: 0.05,
      statusCodes: { '200': 95, '500': 5 },
      errorsByKind: { 'status:500': 5 },
      throughputPerSec: 25,
      requestedRatePerSec: 60,
      lateSlots: 2,
      droppedSlots: 0,
      activeSeconds: 4,
      bytesSent: 100_000,
      overrideRequests: 3,
    });
    expect(summary.latencyMs.count).toBe(100);
    expect(summary.latencyMs.min).toBe(10);
    expect(summary.serviceTimeMs.count).toBe(0);
  });

  it('merged shards give the same numbers as one set (HDR histograms add)', () => {
    const merged = new MetricSet();
    merged.addEncoded(shard(60, 3, 4_000).encode(), true);
    merged.addEncoded(shard(40, 2, 4_000).encode(), true);
    const summary = buildPhotoUploadSummary(merged, profile.photoUpload);
    expect(summary.requests).toBe(100);
    expect(summary.errorRate).toBe(0.05);
    expect(summary.latencyMs.count).toBe(100);
    expect(summary.latencyMs.max).toBeCloseTo(69, 0);
  });

  it('is all zeros for a scenario that sent nothing, without creating histograms', () => {
    const empty = new MetricSet();
    const tags = buildTagLinkSummary(empty, profile.tagLink);
    expect(tags).toMatchObject({ requests: 0, errorRate: 0, throughputPerSec: 0, tagsCreated: 0, existingReturned: 0 });
    expect(empty.hasHistogram(throughputNames('tagLink').latencyUs)).toBe(false);
    empty.inc(TAG_EXTRA.tagsCreated, 7);
    expect(buildTagLinkSummary(empty, { ...profile.tagLink, model: 'closed' })).toMatchObject({ tagsCreated: 7, requestedRatePerSec: null, model: 'closed' });
  });
});
