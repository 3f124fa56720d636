/**
 * The summaries a threshold reads (scenarios, generator, auth), built from any MetricSet: the
 * run total for the report, the totals after warm-up, or the last few minutes of a sliding
 * window while the run goes on.
 */
import type { KeepAliveExpectation } from '../contract/keep-alive.js';
import type { Profile } from '../contract/profile/profile.js';
import { buildAuthSummary } from './auth-summary.js';
import { buildChatSummary } from './chat-summary.js';
import { buildGeneratorSummary } from './generator-summary.js';
import type { MetricSource } from './metric-catalog.js';
import type { MetricSet } from './metric-set.js';
import { buildPhotoUploadSummary, buildRequestsSummary, buildTagLinkSummary } from './throughput-summary.js';

/** What readMetric reads: the report's scenario, generator and auth summaries. */
export type MetricView = MetricSource;

export interface MetricViewContext {
  profile: Profile;
  /**
   * The participants the run's processes held: capped by the fixtures file, a shard's share,
   * the shards' sum in a merge (docs/design.md §2.11). Never the profile's, which every view
   * would then report against a load that was not driven.
   */
  participants: number;
  keepAlive: KeepAliveExpectation;
  processes: number;
  rssBytes: number;
}

/** Summaries of `set` as report.json would show them, for the scenarios the profile enables. */
export function metricView(set: MetricSet, ctx: MetricViewContext): MetricView {
  const { profile } = ctx;
  return {
    scenarios: {
      chatStreams: profile.chatStreams.enabled ? buildChatSummary(set, { participants: ctx.participants, keepAlive: ctx.keepAlive }) : null,
      photoUpload: profile.photoUpload.enabled ? buildPhotoUploadSummary(set, profile.photoUpload) : null,
      tagLink: profile.tagLink.enabled ? buildTagLinkSummary(set, profile.tagLink) : null,
      ...(profile.requests ? { requests: buildRequestsSummary(set, profile.requests) } : {}),
    },
    generator: buildGeneratorSummary(set, {
      maxEventLoopDelayP99Ms: profile.generator.maxEventLoopDelayP99Ms,
      processes: ctx.processes,
      rssBytes: ctx.rssBytes,
    }),
    auth: buildAuthSummary(set) ?? undefined,
  };
}
