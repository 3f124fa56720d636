/**
 * What the live dashboard receives each interval: the figures it draws (rates, open
 * streams, latency and KEEP_ALIVE-gap percentiles of that interval), running totals, and the
 * live state of every check and threshold. Plain JSON, small, one per second.
 */
import { valueAt } from '../../contract/profile/stage-plan.js';
import type { Histogram } from '../../metrics/histogram.js';
import { CHAT } from '../../metrics/names.js';
import { type KindPoint, kindPoints, shownKinds } from './dashboard-kinds.js';
import type { IntervalSample, SessionInfo } from './live-output.js';

export interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
}

export interface DashboardSample {
  tSec: number;
  streamsOpen: number;
  mainStreamsOpen: number;
  /** Participants the plan holds at this instant (each holds one stream of each kind), and their streams (chat and main); null without a planned population. */
  plannedParticipants: number | null;
  plannedStreams: number | null;
  eventsPerSec: number;
  requestsPerSec: number;
  /** Of this interval, in ms; null when nothing was measured in it. */
  eventLatencyMs: Percentiles | null;
  requestLatencyMs: Percentiles | null;
  keepAliveGapMs: Percentiles | null;
  /** Each request kind's figures of this interval (docs/design.md §2.15); absent without kinds. */
  requestKinds?: Record<string, KindPoint>;
  totals: { events: number; requests: number; errors: number; keepAlives: number };
  verdict: string;
  checks: { id: string; status: string; detail: string }[];
  thresholds: { expression: string; status: string; observed: number | null }[];
}

const round3 = (value: number): number => Math.round(value * 1_000) / 1_000;

function percentilesMs(histogram: Histogram): Percentiles | null {
  if (histogram.totalCount === 0) return null;
  const at = (p: number): number => round3(Math.min(histogram.getValueAtPercentile(p), histogram.maxValue) / 1_000);
  return { p50: at(50), p90: at(90), p99: at(99) };
}

/**
 * The interval point's own percentiles, so that the live page and report.html's charts show
 * the same figures for the same interval: for requests, the slower scenario's at each
 * percentile (docs/reports.md, "Over time"), not the two scenarios' answers pooled.
 */
function pointPercentiles(p50: number | null | undefined, p90: number | null | undefined, p99: number | null): Percentiles | null {
  if (p50 === null || p50 === undefined || p90 === null || p90 === undefined || p99 === null) return null;
  return { p50: round3(p50), p90: round3(p90), p99: round3(p99) };
}

/** Running totals shown as numbers that grow. */
export interface RunningTotals {
  events: number;
  requests: number;
  errors: number;
}

/** The participants the session's plan holds at `tSec`. */
function plannedAt(session: SessionInfo | null, tSec: number): number | null {
  const stages = session?.plannedParticipants;
  if (!stages || stages.length === 0) return null;
  return Math.floor(valueAt(stages, tSec * 1_000) + 1e-9);
}

export function dashboardSample(
  { point, interval, total, verdict }: IntervalSample,
  running: RunningTotals,
  session: SessionInfo | null = null,
): DashboardSample {
  const live = verdict();
  const planned = plannedAt(session, point.tSec);
  const kinds = shownKinds(session?.requests);
  return {
    tSec: point.tSec,
    streamsOpen: point.streamsOpen,
    mainStreamsOpen: point.mainStreamsOpen,
    plannedParticipants: planned,
    plannedStreams: planned === null ? null : planned * (session?.streamsPerParticipant ?? 1),
    eventsPerSec: point.eventsPerSec,
    requestsPerSec: point.requestsPerSec,
    eventLatencyMs: pointPercentiles(point.eventLatencyP50Ms, point.eventLatencyP90Ms, point.eventLatencyP99Ms),
    requestLatencyMs: pointPercentiles(point.requestLatencyP50Ms, point.requestLatencyP90Ms, point.requestLatencyP99Ms),
    keepAliveGapMs: interval.hasHistogram(CHAT.keepAliveGapUs) ? percentilesMs(interval.histogram(CHAT.keepAliveGapUs)) : null,
    ...(kinds.length > 0 ? { requestKinds: kindPoints(interval, point.intervalSec, kinds) } : {}),
    totals: { ...running, keepAlives: total.count(CHAT.keepAlives) },
    verdict: live.verdict,
    checks: live.checks.map(({ id, status, detail }) => ({ id, status, detail })),
    thresholds: live.thresholds.map(({ expression, status, observed }) => ({ expression, status, observed })),
  };
}
