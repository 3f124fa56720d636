/**
 * Derives report.json's `scenarios.chatStreams` from the run's total MetricSet. Pure: the
 * same function serves a single run, the parent of workers, and `coachbench merge`. The
 * metric fields are the registry's (src/metrics/registry/chat-metrics.ts); this adds the
 * figures from the settings and the failure samples.
 */
import type { KeepAliveExpectation } from '../contract/keep-alive.js';
import type { ChatStreamsSummary } from '../contract/report.js';
import { summarizeHistogram } from './histogram.js';
import type { MetricSet } from './metric-set.js';
import { CHAT } from './names.js';
import { CHAT_STREAMS_GROUPS } from './registry/chat-metrics.js';
import { reportFields } from './registry/report-fields.js';

export interface ChatSummarySettings {
  participants: number;
  keepAlive: KeepAliveExpectation;
}

/** Counters under `prefix.` (e.g. chat.events.) as a record keyed by the rest of the name. */
export function countersUnder(metrics: MetricSet, prefix: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(metrics.encodeCounters())) {
    if (name.startsWith(prefix)) out[name.slice(prefix.length)] = value;
  }
  return out;
}

export function buildChatSummary(total: MetricSet, settings: ChatSummarySettings): ChatStreamsSummary {
  const figures = {
    participants: settings.participants,
    expectedKeepAliveMs: settings.keepAlive.intervalMs,
    keepAliveToleranceMs: settings.keepAlive.toleranceMs,
  };
  // The registry test holds these fields to ChatStreamsSummary, path for path.
  const measured = reportFields(total, CHAT_STREAMS_GROUPS, figures, (name) => summarizeHistogram(total.histogram(name)));
  return { ...measured, samples: [...total.samplesOf(CHAT.samples)] } as unknown as ChatStreamsSummary;
}
