/**
 * The metrics coachbench exports while it runs (Prometheus `/metrics`, OTLP push): one table
 * of names, types, labels and help, and the mapping from the internal MetricSet names
 * (names.ts) onto it. Names follow the Prometheus conventions: the `coachbench_` prefix,
 * base units (seconds), `_total` on counters. docs/metrics.md documents the same table, and
 * test/metrics/exported-metrics.test.ts holds the two together.
 */
import type { CheckId } from '../contract/check-ids.js';
import { isFailureCode } from '../contract/failure-codes.js';
import { evidenceFailures } from './checks/evidence.js';
import { CHAT, MAIN, type ThroughputScenario, throughputNames } from './names.js';

export type ExportedKind = 'counter' | 'gauge' | 'histogram';

export interface ExportedMetric {
  name: string;
  kind: ExportedKind;
  help: string;
  labels: readonly string[];
}

const metric = (name: string, kind: ExportedKind, labels: readonly string[], help: string): ExportedMetric => ({ name, kind, labels, help });

/** Every exported metric, by a short key. */
export const EXPORTED = {
  events: metric(
    'coachbench_events_total',
    'counter',
    ['stream', 'type'],
    'SSE events received, by stream (chat, main) and eventType (<invalid> for schema violations)',
  ),
  streamsOpened: metric('coachbench_streams_opened_total', 'counter', ['stream'], 'Streams opened with 200 text/event-stream'),
  streamFailures: metric(
    'coachbench_stream_failures_total',
    'counter',
    ['phase', 'code'],
    'Stream opens that failed (phase=open) and streams the target cut (phase=drop), by failure code (docs/failure-codes.md)',
  ),
  requests: metric('coachbench_requests_total', 'counter', ['scenario'], 'Requests answered or failed, by throughput scenario (photoUpload, tagLink)'),
  requestFailures: metric(
    'coachbench_request_failures_total',
    'counter',
    ['scenario', 'code'],
    'Failed requests by scenario and failure code (docs/failure-codes.md)',
  ),
  messagesSent: metric('coachbench_messages_sent_total', 'counter', [], 'Chat messages posted by the message injector'),
  checkFailures: metric(
    'coachbench_check_failures_total',
    'counter',
    ['check'],
    'Observations that failed a conformance check, by check id (docs/design.md §5.4)',
  ),
  openStreams: metric('coachbench_open_streams', 'gauge', ['stream'], 'Streams open (the peak of the last interval), by stream (chat, main)'),
  requestsInFlight: metric(
    'coachbench_requests_in_flight',
    'gauge',
    ['scenario'],
    "Mean requests in flight over the last interval (Little's law: completions per second x mean service time)",
  ),
  requestDuration: metric(
    'coachbench_request_duration_seconds',
    'histogram',
    ['scenario'],
    'Request latency from the intended start (open model) or the actual start (closed model)',
  ),
  keepAliveGap: metric('coachbench_keepalive_gap_seconds', 'histogram', [], 'Gap between two KEEP_ALIVE events on one stream'),
  eventDelivery: metric('coachbench_event_delivery_seconds', 'histogram', [], 'Delivery latency of a chat message: post to its arrival on a stream'),
  streamOpen: metric('coachbench_stream_open_seconds', 'histogram', [], 'Chat-session stream open latency: request sent to its 200 text/event-stream headers'),
  checkStatus: metric(
    'coachbench_check_status',
    'gauge',
    ['check', 'status'],
    'Current state of each check: 1 on the series of its status (pass, fail, skip), 0 on the others',
  ),
  thresholdStatus: metric(
    'coachbench_threshold_status',
    'gauge',
    ['threshold', 'status'],
    'Current state of each threshold: 1 on the series of its status (pass, fail)',
  ),
  elapsed: metric('coachbench_run_elapsed_seconds', 'gauge', [], 'Seconds since the run started, at the end of the last interval'),
  info: metric('coachbench_run_info', 'gauge', ['profile', 'version'], 'Always 1: the profile and coachbench version of this run'),
} as const;

export type ExportedKey = keyof typeof EXPORTED;

/** The series names an endpoint serves for `metric` (a histogram is three series). */
export function seriesNames(exported: ExportedMetric): string[] {
  return exported.kind === 'histogram' ? [`${exported.name}_bucket`, `${exported.name}_sum`, `${exported.name}_count`] : [exported.name];
}

export const SCENARIOS: readonly ThroughputScenario[] = ['photoUpload', 'tagLink'];

/**
 * Bucket bounds in seconds. Latency buckets span 1 ms to 30 s; the KEEP_ALIVE buckets are
 * dense around 15 s (the usual interval) so that a drift of a few hundred ms shows.
 */
export const LATENCY_BUCKETS_SEC = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;
export const KEEPALIVE_BUCKETS_SEC = [0.25, 0.5, 1, 2, 5, 10, 14, 14.5, 15, 15.5, 16, 17, 20, 30, 60] as const;

/** Histogram sources: the MetricSet histogram (integer µs) behind each exported histogram series. */
export const HISTOGRAM_SOURCES: readonly { key: ExportedKey; source: string; labels: Record<string, string>; buckets: readonly number[] }[] = [
  ...SCENARIOS.map((scenario) => ({
    key: 'requestDuration' as const,
    source: throughputNames(scenario).latencyUs,
    labels: { scenario },
    buckets: LATENCY_BUCKETS_SEC,
  })),
  { key: 'keepAliveGap', source: CHAT.keepAliveGapUs, labels: {}, buckets: KEEPALIVE_BUCKETS_SEC },
  { key: 'eventDelivery', source: CHAT.eventLatencyUs, labels: {}, buckets: LATENCY_BUCKETS_SEC },
  { key: 'streamOpen', source: CHAT.openLatencyUs, labels: {}, buckets: LATENCY_BUCKETS_SEC },
];

/**
 * The counters whose sum is the failed observations of each stream check: the same counts
 * stream-checks.ts judges. Request-level checks count their own (`check.<id>.failures`).
 */
const STREAM_CHECK_FAILURES: Readonly<Record<string, CheckId>> = {
  [CHAT.openFailed]: 'stream.open',
  [MAIN.openFailed]: 'stream.open',
  [CHAT.dropped]: 'stream.open',
  [MAIN.dropped]: 'stream.open',
  [CHAT.keepAliveViolations]: 'stream.keepalive.cadence',
  [CHAT.firstKeepAliveLate]: 'stream.keepalive.cadence',
  [CHAT.firstKeepAliveEarly]: 'stream.keepalive.cadence',
  [CHAT.stalled]: 'stream.stall',
  [CHAT.isolationViolations]: 'stream.session.isolation',
  [CHAT.schemaViolations]: 'stream.event.schema',
  [CHAT.deliveriesMissing]: 'stream.message.delivery',
  [CHAT.duplicates]: 'stream.message.delivery',
};

export interface ExportedCount {
  key: ExportedKey;
  labels: Record<string, string>;
}

const CHECK_FAILURES = /^check\.(.+)\.failures$/;

/**
 * Where an internal counter is exported, or an empty list for counters that are not (slots,
 * bytes, evidence runs ...). A counter can feed two series (a failed stream open is a stream
 * failure by code and a failed observation of stream.open).
 */
export function exportedCountsOf(counter: string): ExportedCount[] {
  const out: ExportedCount[] = [];
  const streamCheck = STREAM_CHECK_FAILURES[counter];
  if (streamCheck) out.push({ key: 'checkFailures', labels: { check: streamCheck } });
  const [head, ...rest] = counter.split('.');
  const tail = rest.join('.');
  if ((head === 'chat' || head === 'main') && rest[0] === 'events' && rest.length > 1) {
    out.push({ key: 'events', labels: { stream: head, type: rest.slice(1).join('.') } });
  } else if ((head === 'chat' || head === 'main') && tail === 'opened') {
    out.push({ key: 'streamsOpened', labels: { stream: head } });
  } else if (head === 'chat' && (rest[0] === 'openFailed' || rest[0] === 'dropped') && isFailureCode(rest.slice(1).join('.'))) {
    out.push({ key: 'streamFailures', labels: { phase: rest[0] === 'openFailed' ? 'open' : 'drop', code: rest.slice(1).join('.') } });
  } else if (counter === CHAT.messagesSent) {
    out.push({ key: 'messagesSent', labels: {} });
  } else if (SCENARIOS.includes(head as ThroughputScenario)) {
    const names = throughputNames(head as ThroughputScenario);
    if (counter === names.requests) out.push({ key: 'requests', labels: { scenario: head as string } });
    else if (rest[0] === 'error' && isFailureCode(rest.slice(1).join('.')))
      out.push({ key: 'requestFailures', labels: { scenario: head as string, code: rest.slice(1).join('.') } });
  } else {
    const check = CHECK_FAILURES.exec(counter)?.[1];
    if (check !== undefined && counter === evidenceFailures(check as CheckId)) out.push({ key: 'checkFailures', labels: { check } });
  }
  return out;
}
