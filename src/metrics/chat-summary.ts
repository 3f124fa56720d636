/**
 * Derives report.json's `scenarios.chatStreams` from the run's total MetricSet. Pure: the
 * same function serves a single run, the parent of workers, and `coachbench merge`.
 */
import type { KeepAliveExpectation } from '../contract/keep-alive.js';
import type { ChatStreamsSummary } from '../contract/report.js';
import { summarizeHistogram } from './histogram.js';
import type { MetricSet } from './metric-set.js';
import { CHAT, MAIN } from './names.js';

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
  const c = (name: string): number => total.count(name);
  const h = (name: string) => summarizeHistogram(total.histogram(name));
  return {
    participants: settings.participants,
    opened: c(CHAT.opened),
    openFailed: c(CHAT.openFailed),
    openFailures: countersUnder(total, 'chat.openFailed.'),
    dropped: c(CHAT.dropped),
    drops: countersUnder(total, 'chat.dropped.'),
    reopened: c(CHAT.reopened),
    switches: c(CHAT.switches),
    leftByPlan: c(CHAT.leftByPlan),
    resume: {
      reconnects: c(CHAT.reconnects),
      reconnectDelayMs: h(CHAT.reconnectDelayUs),
      resumed: c(CHAT.resumes),
      eventsRecovered: c(CHAT.resumeRecovered),
      lost: c(CHAT.resumeLost),
      duplicated: c(CHAT.resumeDuplicated),
      notResumable: c(CHAT.notResumable),
    },
    stalled: c(CHAT.stalled),
    peakConcurrent: total.peakOf(CHAT.open),
    mainStreams: {
      opened: c(MAIN.opened),
      openFailed: c(MAIN.openFailed),
      dropped: c(MAIN.dropped),
      peakConcurrent: total.peakOf(MAIN.open),
      events: countersUnder(total, 'main.events.'),
    },
    events: countersUnder(total, 'chat.events.'),
    keepAliveGapMs: h(CHAT.keepAliveGapUs),
    firstKeepAliveMs: h(CHAT.firstKeepAliveUs),
    firstKeepAliveFromRequestMs: h(CHAT.firstKeepAliveFromRequestUs),
    worstGapMs: h(CHAT.worstGapUs),
    eventLatencyMs: h(CHAT.eventLatencyUs),
    openLatencyMs: h(CHAT.openLatencyUs),
    expectedKeepAliveMs: settings.keepAlive.intervalMs,
    keepAliveToleranceMs: settings.keepAlive.toleranceMs,
    keepAliveViolations: c(CHAT.keepAliveViolations),
    firstKeepAliveLate: c(CHAT.firstKeepAliveLate),
    firstKeepAliveEarly: c(CHAT.firstKeepAliveEarly),
    firstKeepAliveWithHeaders: c(CHAT.firstKeepAliveWithHeaders),
    keepAliveBunched: c(CHAT.keepAliveBunched),
    stalledSilentAfterHeaders: c(CHAT.stalledSilentAfterHeaders),
    streamsPastStallWindow: c(CHAT.streamsPastStallWindow),
    isolationViolations: c(CHAT.isolationViolations),
    schemaViolations: c(CHAT.schemaViolations),
    schemaViolationKinds: countersUnder(total, 'chat.schema.'),
    messagesSent: c(CHAT.messagesSent),
    messagesFailed: c(CHAT.messagesFailed),
    messagesLateSlots: c(CHAT.messagesLateSlots),
    messagesDroppedSlots: c(CHAT.messagesDroppedSlots),
    deliveriesExpected: c(CHAT.deliveriesExpected),
    deliveriesReceived: c(CHAT.deliveriesReceived),
    deliveriesMissing: c(CHAT.deliveriesMissing),
    duplicates: c(CHAT.duplicates),
    membershipOps: c(CHAT.membershipOps),
    membershipOpsFailed: c(CHAT.membershipOpsFailed),
    samples: [...total.samplesOf(CHAT.samples)],
  };
}
