/**
 * Per-interval time series with adaptive resolution: once MAX_POINTS are held, neighbouring
 * points are merged pairwise and later intervals are bucketed twice as wide, so an 8-hour
 * soak keeps at most MAX_POINTS points (memory flat, report size bounded).
 */
import type { TimeseriesPoint } from '../contract/report.js';
import type { MetricSet } from './metric-set.js';
import { CHAT, GENERATOR, MAIN, throughputNames } from './names.js';
import { mergeSlowest } from './slowest.js';

export const MAX_POINTS = 720;

const photo = throughputNames('photoUpload');
const tags = throughputNames('tagLink');

const maxOrNull = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.max(a, b));

const percentileMs = (set: MetricSet, name: string, percentile: number): number | null => {
  if (!set.hasHistogram(name)) return null;
  const histogram = set.histogram(name);
  return histogram.totalCount === 0 ? null : histogram.getValueAtPercentile(percentile) / 1_000;
};
const p99Ms = (set: MetricSet, name: string): number | null => percentileMs(set, name, 99);

/** The slower request scenario's percentile (photo upload or tag link), as for the p99. */
const requestMs = (set: MetricSet, percentile: number): number | null =>
  maxOrNull(percentileMs(set, photo.latencyUs, percentile), percentileMs(set, tags.latencyUs, percentile));

const KIND_REQUESTS = /^requests\.[^.]+\.requests$/;
const KIND_ERRORS = /^requests\.[^.]+\.errors$/;

/** One point from one interval's MetricSet. */
export function pointFromInterval(set: MetricSet, tSec: number, intervalSec: number): TimeseriesPoint {
  let events = 0;
  // Request kinds (docs/design.md §2.15) count beside photo upload and tag link.
  let kindRequests = 0;
  let kindErrors = 0;
  for (const [name, value] of Object.entries(set.encodeCounters())) {
    if (name.startsWith('chat.events.') || name.startsWith('main.events.')) events += value;
    else if (KIND_REQUESTS.test(name)) kindRequests += value;
    else if (KIND_ERRORS.test(name)) kindErrors += value;
  }
  const requests = set.count(photo.requests) + set.count(tags.requests) + kindRequests;
  const errors =
    kindErrors +
    set.count(CHAT.openFailed) +
    set.count(MAIN.openFailed) +
    set.count(CHAT.dropped) +
    set.count(MAIN.dropped) +
    set.count(CHAT.stalled) +
    set.count(CHAT.messagesFailed) +
    set.count(photo.errors) +
    set.count(tags.errors);
  return {
    tSec: round(tSec),
    intervalSec: round(intervalSec),
    streamsOpen: set.peakOf(CHAT.open),
    mainStreamsOpen: set.peakOf(MAIN.open),
    streamSeconds: round(set.count(CHAT.heldStreamUs) / 1e6),
    events,
    eventsPerSec: round(events / intervalSec),
    keepAlives: set.count(CHAT.keepAlives),
    keepAliveViolations: set.count(CHAT.keepAliveViolations),
    errors,
    requests,
    requestsPerSec: round(requests / intervalSec),
    messagesSent: set.count(CHAT.messagesSent),
    eventLatencyP99Ms: p99Ms(set, CHAT.eventLatencyUs),
    requestLatencyP99Ms: requestMs(set, 99),
    eventLatencyP50Ms: percentileMs(set, CHAT.eventLatencyUs, 50),
    eventLatencyP90Ms: percentileMs(set, CHAT.eventLatencyUs, 90),
    requestLatencyP50Ms: requestMs(set, 50),
    requestLatencyP90Ms: requestMs(set, 90),
    // The worse of the two loops where requests have a thread of their own.
    eventLoopDelayP99Ms: maxOrNull(p99Ms(set, GENERATOR.loopDelayUs), p99Ms(set, GENERATOR.requestLoopDelayUs)),
    rssBytes: set.peakOf(GENERATOR.rssBytes),
    ...slowestOf(set),
  };
}

/** The interval's slowest traced requests, rounded like the other figures; absent when none was traced. */
function slowestOf(set: MetricSet): Pick<TimeseriesPoint, 'slowest'> {
  const { slowest } = set.encodeSlowest();
  if (slowest === undefined) return {};
  for (const list of Object.values(slowest)) for (const slow of list) slow.latencyMs = round(slow.latencyMs);
  return { slowest };
}

const round = (value: number): number => Math.round(value * 1_000) / 1_000;

/*
 * Percentiles added in 1.2.0: absent from older reports' points, and left absent on a merged
 * point when neither side had them, so a merged old report stays as it was.
 */
const BAND_KEYS = ['eventLatencyP50Ms', 'eventLatencyP90Ms', 'requestLatencyP50Ms', 'requestLatencyP90Ms'] as const;

function mergeBands(a: TimeseriesPoint, b: TimeseriesPoint): Partial<Pick<TimeseriesPoint, (typeof BAND_KEYS)[number]>> {
  const bands: Partial<Pick<TimeseriesPoint, (typeof BAND_KEYS)[number]>> = {};
  for (const key of BAND_KEYS) {
    if (a[key] !== undefined || b[key] !== undefined) bands[key] = maxOrNull(a[key] ?? null, b[key] ?? null);
  }
  return bands;
}

/**
 * Merges two consecutive points (or the same interval of two shards when `concurrent`).
 * Counts add; gauges take the max in time and add across shards. Percentiles (p50, p90,
 * p99) take the max of the two: not the merged interval's percentile but an upper bound on
 * it (the exact one needs the histograms, which live in histograms.hlog). Points made by
 * compaction on a long soak and by `merge` are bounds in this sense.
 */
export function mergePoints(a: TimeseriesPoint, b: TimeseriesPoint, concurrent = false): TimeseriesPoint {
  const gauge = (x: number, y: number): number => (concurrent ? x + y : Math.max(x, y));
  const intervalSec = concurrent ? Math.max(a.intervalSec, b.intervalSec) : round(a.intervalSec + b.intervalSec);
  const events = a.events + b.events;
  const requests = a.requests + b.requests;
  return {
    tSec: Math.max(a.tSec, b.tSec),
    intervalSec,
    streamsOpen: gauge(a.streamsOpen, b.streamsOpen),
    mainStreamsOpen: gauge(a.mainStreamsOpen, b.mainStreamsOpen),
    // Stream-seconds add, side by side and one after another alike.
    ...(a.streamSeconds !== undefined || b.streamSeconds !== undefined ? { streamSeconds: round((a.streamSeconds ?? 0) + (b.streamSeconds ?? 0)) } : {}),
    events,
    eventsPerSec: round(events / intervalSec),
    keepAlives: a.keepAlives + b.keepAlives,
    keepAliveViolations: a.keepAliveViolations + b.keepAliveViolations,
    errors: a.errors + b.errors,
    requests,
    requestsPerSec: round(requests / intervalSec),
    messagesSent: a.messagesSent + b.messagesSent,
    eventLatencyP99Ms: maxOrNull(a.eventLatencyP99Ms, b.eventLatencyP99Ms),
    requestLatencyP99Ms: maxOrNull(a.requestLatencyP99Ms, b.requestLatencyP99Ms),
    eventLoopDelayP99Ms: maxOrNull(a.eventLoopDelayP99Ms, b.eventLoopDelayP99Ms),
    rssBytes: gauge(a.rssBytes, b.rssBytes),
    ...mergeBands(a, b),
    // A merged point is warm-up only if all of it is, and behind if any of it was.
    ...(a.warmup && b.warmup ? { warmup: true as const } : {}),
    ...(a.generatorBehind || b.generatorBehind ? { generatorBehind: true as const } : {}),
    ...(a.slowest !== undefined || b.slowest !== undefined ? { slowest: mergeSlowest(a.slowest, b.slowest) } : {}),
  };
}

export class TimeseriesBuilder {
  private readonly points: TimeseriesPoint[] = [];
  /** How many raw intervals make one point now (doubles on each compaction). */
  private span = 1;
  private pending: TimeseriesPoint | null = null;
  private pendingCount = 0;

  add(point: TimeseriesPoint): void {
    this.pending = this.pending ? mergePoints(this.pending, point) : point;
    if (++this.pendingCount < this.span) return;
    this.points.push(this.pending);
    this.pending = null;
    this.pendingCount = 0;
    if (this.points.length >= MAX_POINTS) this.compact();
  }

  private compact(): void {
    const merged: TimeseriesPoint[] = [];
    for (let i = 0; i < this.points.length; i += 2) {
      const a = this.points[i]!;
      const b = this.points[i + 1];
      merged.push(b ? mergePoints(a, b) : a);
    }
    this.points.splice(0, this.points.length, ...merged);
    this.span *= 2;
  }

  /** Every point so far, including a partly filled last bucket. */
  toArray(): TimeseriesPoint[] {
    return this.pending ? [...this.points, this.pending] : [...this.points];
  }
}
