/**
 * The metrics coachbench exports while it runs (Prometheus `/metrics`, OTLP push): name,
 * type, labels, help, and the line docs/metrics.md shows. Names follow the Prometheus
 * conventions: the `coachbench_` prefix, base units (seconds), `_total` on counters. Which
 * internal metric feeds which series is declared on the metric (`export`, `failsCheck`).
 */
export type ExportedKind = 'counter' | 'gauge' | 'histogram';

export interface ExportedMetric {
  name: string;
  kind: ExportedKind;
  help: string;
  labels: readonly string[];
  /** docs/metrics.md's "labels" cell: the labels with their values where they are few. */
  labelDoc: string;
  /** docs/metrics.md's "what it counts" cell. */
  doc: string;
  /** Bucket bounds in seconds, for a histogram. */
  buckets?: readonly number[];
}

/**
 * Bucket bounds in seconds. Latency buckets span 1 ms to 30 s; the KEEP_ALIVE buckets are
 * dense around 15 s (the usual interval) so that a drift of a few hundred ms shows.
 */
export const LATENCY_BUCKETS_SEC = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;
export const KEEPALIVE_BUCKETS_SEC = [0.25, 0.5, 1, 2, 5, 10, 14, 14.5, 15, 15.5, 16, 17, 20, 30, 60] as const;

/**
 * The label only request kinds' series carry (docs/design.md §2.15): `scenario="requests",
 * kind="<name>"`. Built-in scenarios' series go without it, as before kinds existed.
 */
export const KIND_LABEL = 'kind';

const exported = (
  name: string,
  kind: ExportedKind,
  labels: readonly string[],
  help: string,
  docs: { labels?: string; doc: string; buckets?: readonly number[] },
): ExportedMetric => ({
  name,
  kind,
  labels,
  help,
  labelDoc: docs.labels ?? labels.map((label) => `\`${label}\``).join(', '),
  doc: docs.doc,
  ...(docs.buckets ? { buckets: docs.buckets } : {}),
});

/** Every exported metric, by a short key, in the order the endpoints register them. */
export const EXPORTED = {
  events: exported(
    'coachbench_events_total',
    'counter',
    ['stream', 'type'],
    'SSE events received, by stream (chat, main) and eventType (<invalid> for schema violations)',
    { labels: '`stream` (chat, main), `type` (eventType; `<invalid>` for schema violations)', doc: 'SSE events received' },
  ),
  streamsOpened: exported('coachbench_streams_opened_total', 'counter', ['stream'], 'Streams opened with 200 text/event-stream', {
    doc: 'streams opened with 200 text/event-stream',
  }),
  streamFailures: exported(
    'coachbench_stream_failures_total',
    'counter',
    ['phase', 'code'],
    'Stream opens that failed (phase=open) and streams the target cut (phase=drop), by failure code (docs/failure-codes.md)',
    {
      labels: '`phase` (open, drop), `code`',
      doc: 'stream opens that failed and streams the target cut, by failure code (docs/failure-codes.md)',
    },
  ),
  requests: exported(
    'coachbench_requests_total',
    'counter',
    ['scenario', 'kind'],
    'Requests answered or failed, by throughput scenario (photoUpload, tagLink, requests) and request kind',
    {
      labels: "`scenario` (photoUpload, tagLink, requests), `kind` (request kinds only: the kind's name)",
      doc: 'requests answered or failed',
    },
  ),
  requestFailures: exported(
    'coachbench_request_failures_total',
    'counter',
    ['scenario', 'kind', 'code'],
    'Failed requests by scenario, request kind and failure code (docs/failure-codes.md)',
    { doc: 'failed requests by failure code; a request counts once under each distinct code it showed, as in `errorsByKind`' },
  ),
  streamHeld: exported(
    'coachbench_stream_held_seconds_total',
    'counter',
    [],
    'Stream-seconds held: open streams (chat and main) integrated over time; its rate is the mean streams held',
    {
      doc: "stream-seconds held, chat and main streams together (report.json time series' `streamSeconds`, what `load.achieved` judges): its rate is the mean number of streams held",
    },
  ),
  messagesSent: exported('coachbench_messages_sent_total', 'counter', [], 'Chat messages posted by the message injector', {
    doc: 'chat messages posted by the message injector',
  }),
  checkFailures: exported(
    'coachbench_check_failures_total',
    'counter',
    ['check'],
    'Observations that failed a conformance check, by check id (docs/design.md §5.4)',
    { doc: 'observations that failed a check (docs/design.md §5.4): the counts the check judges, e.g. failed opens + drops for `stream.open`' },
  ),
  openStreams: exported('coachbench_open_streams', 'gauge', ['stream'], 'Streams open (the peak of the last interval), by stream (chat, main)', {
    doc: 'streams open: the peak of the last interval',
  }),
  requestsInFlight: exported(
    'coachbench_requests_in_flight',
    'gauge',
    ['scenario', 'kind'],
    "Mean requests in flight over the last interval (Little's law: completions per second x mean service time)",
    {
      doc: "mean requests in flight over the last interval, by Little's law (completions per second × mean service time): exact for the interval's average, and no counter in the request path",
    },
  ),
  requestDuration: exported(
    'coachbench_request_duration_seconds',
    'histogram',
    ['scenario', 'kind'],
    'Request latency from the intended start (open model) or the actual start (closed model)',
    { doc: 'request latency from the intended start (open model) or the actual start (closed model); buckets 1 ms … 30 s', buckets: LATENCY_BUCKETS_SEC },
  ),
  keepAliveGap: exported('coachbench_keepalive_gap_seconds', 'histogram', [], 'Gap between two KEEP_ALIVE events on one stream', {
    doc: 'the gap between two KEEP_ALIVEs on one stream; buckets dense around 15 s (14, 14.5, 15, 15.5, 16, 17)',
    buckets: KEEPALIVE_BUCKETS_SEC,
  }),
  eventDelivery: exported('coachbench_event_delivery_seconds', 'histogram', [], 'Delivery latency of a chat message: post to its arrival on a stream', {
    doc: "a chat message's delivery latency, post to arrival on a stream; buckets 1 ms … 30 s",
    buckets: LATENCY_BUCKETS_SEC,
  }),
  streamOpen: exported(
    'coachbench_stream_open_seconds',
    'histogram',
    [],
    'Chat-session stream open latency: request sent to its 200 text/event-stream headers',
    {
      doc: "a chat-session stream's open latency, request sent to its headers (report.json `openLatencyMs`; an intermediary holding the headers moves it to one KEEP_ALIVE interval); buckets 1 ms … 30 s",
      buckets: LATENCY_BUCKETS_SEC,
    },
  ),
  checkStatus: exported(
    'coachbench_check_status',
    'gauge',
    ['check', 'status'],
    'Current state of each check: 1 on the series of its status (pass, fail, skip), 0 on the others',
    { labels: '`check`, `status` (pass, fail, skip)', doc: "1 on the series of each check's current status, 0 on the others" },
  ),
  thresholdStatus: exported(
    'coachbench_threshold_status',
    'gauge',
    ['threshold', 'status'],
    'Current state of each threshold: 1 on the series of its status (pass, fail)',
    { labels: '`threshold` (the expression), `status` (pass, fail)', doc: 'the same for each whole-run threshold' },
  ),
  elapsed: exported('coachbench_run_elapsed_seconds', 'gauge', [], 'Seconds since the run started, at the end of the last interval', {
    doc: 'seconds since the session started, at the end of the last interval',
  }),
  info: exported('coachbench_run_info', 'gauge', ['profile', 'version'], 'Always 1: the profile and coachbench version of this run', {
    doc: 'always 1',
  }),
} as const satisfies Record<string, ExportedMetric>;

export type ExportedKey = keyof typeof EXPORTED;
