/**
 * Builds realistic Reports for report tests without the run pipeline: every `...Ms`
 * summary comes from a real HDR histogram of known, seeded values, so percentile curves,
 * compare and thresholds see exactly what a run would produce.
 */

import { CHECK_IDS, type CheckId } from '../../src/contract/check-ids.js';
import type {
  CapacityResult,
  ChatStreamsSummary,
  CheckResult,
  HistogramSummary,
  PhotoUploadSummary,
  Report,
  TagLinkSummary,
  ThresholdResult,
  TimeseriesPoint,
} from '../../src/contract/report.js';
import { REPORT_SCHEMA_VERSION } from '../../src/contract/report.js';
import { createHistogram, recordMs, summarizeHistogram } from '../../src/metrics/histogram.js';
import { MetricSet } from '../../src/metrics/metric-set.js';
import { seededRandom } from '../../src/util/seeded-random.js';

export interface MakeReportOptions {
  seed?: number;
  /** Added to every target latency (ms), like the reference target's `latency=MS` fault. */
  latencyShiftMs?: number;
  /** Checks reported as failed (detail says why); the verdict follows. */
  failChecks?: CheckId[];
  /** A string from "the target" placed in details, samples, warnings and event keys. */
  hostile?: string;
  chatStreams?: boolean;
  photoUpload?: boolean;
  tagLink?: boolean;
  thresholds?: ThresholdResult[];
  interrupted?: boolean;
  /** KEEP_ALIVE gaps outside the tolerance band (late by ~2 s). */
  lateKeepAlives?: number;
  timeseriesPoints?: number;
}

function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
}

/** Records `values` into a fresh HDR histogram and summarizes it the way the recorder does. */
export function summaryOf(values: readonly number[], metrics?: MetricSet, name?: string): HistogramSummary {
  const histogram = createHistogram();
  for (const value of values) recordMs(histogram, value);
  if (metrics && name) metrics.histogram(name).add(histogram);
  return summarizeHistogram(histogram);
}

const logNormal = (random: () => number, medianMs: number, sigma: number, n: number, shiftMs: number): number[] =>
  Array.from({ length: n }, () => medianMs * Math.exp(sigma * normal(random)) + shiftMs);

function chatStreams(random: () => number, shift: number, metrics: MetricSet, options: MakeReportOptions): ChatStreamsSummary {
  const hostile = options.hostile;
  const gaps = Array.from({ length: 1_200 }, () => 15_000 + 15 * normal(random));
  for (let i = 0; i < (options.lateKeepAlives ?? 0); i += 1) gaps.push(17_000 + 400 * random());
  const events: Record<string, number> = { KEEP_ALIVE: gaps.length + 200, MESSAGE_SENT: 2_000, JOINED: 12, LEFT: 4 };
  if (hostile) events[hostile] = 1;
  return {
    participants: 200,
    opened: 200,
    openFailed: 0,
    openFailures: {},
    dropped: 0,
    drops: {},
    reopened: 0,
    switches: 6,
    stalled: 0,
    peakConcurrent: 200,
    mainStreams: { opened: 200, openFailed: 0, dropped: 0, peakConcurrent: 200, events: { KEEP_ALIVE: 1_400, MESSAGE_SENT: 2_000 } },
    events,
    keepAliveGapMs: summaryOf(gaps, metrics, 'chat.keepAliveGap'),
    firstKeepAliveMs: summaryOf(
      Array.from({ length: 200 }, () => 15_000 * random()),
      metrics,
      'chat.firstKeepAlive',
    ),
    worstGapMs: summaryOf(
      Array.from({ length: 200 }, () => 15_020 + 10 * random()),
      metrics,
      'chat.worstGap',
    ),
    eventLatencyMs: summaryOf(logNormal(random, 1.8, 0.5, 2_000, shift), metrics, 'chat.eventLatency'),
    openLatencyMs: summaryOf(logNormal(random, 4.5, 0.4, 200, shift), metrics, 'chat.openLatency'),
    expectedKeepAliveMs: 15_000,
    keepAliveToleranceMs: 1_500,
    keepAliveViolations: options.lateKeepAlives ?? 0,
    firstKeepAliveLate: 0,
    firstKeepAliveEarly: 0,
    streamsPastStallWindow: 400,
    isolationViolations: 0,
    schemaViolations: 0,
    schemaViolationKinds: {},
    messagesSent: 400,
    messagesFailed: 0,
    messagesLateSlots: 0,
    messagesDroppedSlots: 0,
    deliveriesExpected: 2_000,
    deliveriesReceived: 2_000,
    deliveriesMissing: 0,
    duplicates: 0,
    membershipOps: 16,
    membershipOpsFailed: 0,
    samples: hostile ? [hostile] : [],
  };
}

function throughput(random: () => number, median: number, shift: number, metrics: MetricSet, name: string) {
  const service = logNormal(random, median, 0.35, 1_800, shift);
  // Intended-start latency = service time + queueing behind the schedule: never less.
  const latency = service.map((value) => value + (random() < 0.05 ? 30 * random() : 0.2 * random()));
  return {
    model: 'open' as const,
    requests: 1_800,
    errors: 2,
    errorRate: 2 / 1_800,
    errorsByKind: { 'status:503': 2 },
    statusCodes: { '200': 1_798, '503': 2 },
    throughputPerSec: 60,
    requestedRatePerSec: 60,
    lateSlots: 0,
    droppedSlots: 0,
    latencyMs: summaryOf(latency, metrics, `${name}.latency`),
    serviceTimeMs: summaryOf(service, metrics, `${name}.serviceTime`),
    activeSeconds: 30,
  };
}

function timeseries(points: number, shift: number): TimeseriesPoint[] {
  return Array.from({ length: points }, (_, i) => ({
    tSec: i + 1,
    intervalSec: 1,
    streamsOpen: Math.min(200, (i + 1) * 40),
    mainStreamsOpen: Math.min(200, (i + 1) * 40),
    events: 80 + (i % 3),
    eventsPerSec: 80 + (i % 3),
    keepAlives: 40,
    keepAliveViolations: 0,
    errors: i === 7 ? 2 : 0,
    requests: 120,
    requestsPerSec: 120,
    messagesSent: 13,
    eventLatencyP99Ms: i === 0 ? null : 4 + shift + (i % 4) * 0.3,
    requestLatencyP99Ms: 18 + shift + (i % 5),
    eventLatencyP50Ms: i === 0 ? null : 1.5 + shift,
    eventLatencyP90Ms: i === 0 ? null : 3 + shift + (i % 4) * 0.2,
    requestLatencyP50Ms: 7 + shift,
    requestLatencyP90Ms: 12 + shift + (i % 3),
    eventLoopDelayP99Ms: 10.5 + (i % 2),
    rssBytes: 90_000_000 + i * 250_000,
  }));
}

/**
 * A capacity search over participants like profiles/capacity.json: latency climbs with load
 * and breaks the 100 ms SLO at 4,000; bisection tried 3,000 and 3,500 (the knee).
 */
export function makeCapacity(): CapacityResult {
  const latency = 'chatStreams.eventLatencyMs.p99 < 100';
  const violations = 'chatStreams.keepAliveViolations == 0';
  const step = (load: number, p99: number, late: number, order: number) => ({
    load,
    pass: p99 < 100 && late === 0,
    values: { [latency]: p99, [violations]: late },
    failedChecks: late > 0 ? ['stream.keepalive.cadence'] : [],
    reportDir: `steps/${String(order).padStart(2, '0')}-${load}`,
  });
  return {
    variable: 'chatStreams.participants',
    loadUnit: 'participants',
    slos: [latency, violations],
    steps: [step(1_000, 12.5, 0, 1), step(2_000, 31, 0, 2), step(3_000, 58, 0, 4), step(3_500, 84, 0, 5), step(4_000, 171, 3, 3)],
    maxSustainableLoad: 3_500,
    firstFailingLoad: 4_000,
    stoppedBecause: 'slo',
  };
}

/** A complete, schema-valid Report; the same options always give the same bytes. */
export function makeReport(options: MakeReportOptions = {}): Report {
  // Seeded, so every built report is byte-identical run to run.
  const random = seededRandom(options.seed ?? 7);
  const shift = options.latencyShiftMs ?? 0;
  const metrics = new MetricSet();
  const failing = new Set(options.failChecks ?? []);
  const checks: CheckResult[] = CHECK_IDS.map((id): CheckResult => {
    if (failing.has(id)) return { id, status: 'fail', observed: 3, detail: `3 violations; first: ${options.hostile ?? 'gap of 17.2 s on cs-000004-1'}` };
    if (id.startsWith('tags.') && options.tagLink === false) return { id, status: 'skip', observed: null, detail: 'tagLink scenario is off' };
    return { id, status: 'pass', observed: 0, detail: 'no violations' };
  });
  const thresholds = options.thresholds ?? [];
  const failed = checks.some((check) => check.status === 'fail') || thresholds.some((t) => t.status === 'fail');
  const photo: PhotoUploadSummary = { ...throughput(random, 7, shift, metrics, 'photo'), overrideRequests: 180, bytesSent: 1_800 * 48_000 };
  const tags: TagLinkSummary = { ...throughput(random, 3.2, shift, metrics, 'tags'), tagsCreated: 3_600, existingReturned: 0 };
  const report: Report = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'coachbench', version: '0.1.0' },
    runId: 'smoke-20250101T000000Z-abc123',
    startedAt: '2025-01-01T00:00:00.000Z',
    endedAt: '2025-01-01T00:00:30.500Z',
    durationMs: 30_500,
    interrupted: options.interrupted ?? false,
    verdict: failed ? 'fail' : 'pass',
    target: { url: 'http://127.0.0.1:40123', embedded: true, ...(options.hostile ? { faults: [options.hostile] } : {}) },
    profile: { name: options.hostile ?? 'smoke', duration: '30s' },
    shard: null,
    checks,
    thresholds,
    scenarios: {
      chatStreams: options.chatStreams === false ? null : chatStreams(random, shift, metrics, options),
      photoUpload: options.photoUpload === false ? null : photo,
      tagLink: options.tagLink === false ? null : tags,
    },
    generator: {
      // Delay beyond the monitor's timer period, as the run pipeline records it: mostly sub-ms.
      eventLoopDelayMs: summaryOf(logNormal(random, 0.4, 0.8, 300, 0), metrics, 'generator.eventLoopDelay'),
      cpuPercent: 23.5,
      rssBytes: 97_500_000,
      peakRssBytes: 101_000_000,
      saturated: false,
      maxEventLoopDelayP99Ms: 50,
      processes: 1,
    },
    timeseries: timeseries(options.timeseriesPoints ?? 30, shift),
    warnings: options.hostile ? [`worker said: ${options.hostile}`] : [],
    metrics: metrics.encode(),
  };
  return report;
}
