/**
 * The report.json contract (docs/design.md §5). Everything here is plain JSON:
 * a Report is printable, diffable, and mergeable because histograms travel HDR-encoded.
 * Bump REPORT_SCHEMA_VERSION on any breaking change, and update schemas/report.schema.json.
 */
import type { CheckId, CheckStatus } from './check-ids.js';
import type { EncodedMetrics, SlowRequest } from './encoded-metrics.js';

/** The shape of every `...Ms` histogram in report.json (docs/design.md §5). */
export interface HistogramSummary {
  count: number;
  min: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  /** HdrHistogram compressed base64, values in integer microseconds. */
  hdr: string;
}

import type { RunPlan } from './profile/stage-plan.js';

/**
 * 1.1.0: failure codes (docs/failure-codes.md) key openFailures, drops and errorsByKind; verdict `incomplete`; coreChecks.
 * 1.2.0: `aborted`, thresholds' `window`, time-series points' `warmup`.
 * 1.3.0: `plan` (the planned load shape), `stages` (headline metrics per named stage), chatStreams `leftByPlan`,
 *        `start` (--start-at: planned and actual start), `shardStarts` (merge: each shard's start skew), `transport`,
 *        chatStreams `resume` and the check `stream.resume`.
 * 1.4.0: `auth` (bearer-token renewal: --token-command, fixtures re-read) and the check `auth.token.refresh`.
 * 1.5.0: `generator.behind` and time-series points' `generatorBehind` (intervals the driver fell behind in),
 *        `generator.requestLoopDelayMs` (the request thread's loop).
 * 1.6.0: the check `load.achieved` and time-series points' `streamSeconds`; chatStreams
 *        `firstKeepAliveFromRequestMs`, `firstKeepAliveWithHeaders`, `keepAliveBunched`,
 *        `stalledSilentAfterHeaders`, `resume.idsUnsendable`; `metrics.maxima`; the failure codes
 *        `body-too-large` and `proxy:<nnn>`; `plan.arrivals` (Poisson); `metrics.slowest`,
 *        time-series points' `slowest` and `traceUrl` (trace context).
 * 1.7.0: `scenarios.requests` (request kinds), `requests.<name>` in `plan` and `stages`, the
 *        check `requests.expectations` and the failure code `body-schema`; slowest requests'
 *        `spanId`; `plan.scenarios[].stages[].named` required (always written since 1.3.0).
 */
export const REPORT_SCHEMA_VERSION = '1.7.0';

export interface CheckResult {
  id: CheckId;
  status: CheckStatus;
  /**
   * What the status rests on: for a pass, the number of observations that held (always > 0:
   * nothing passes without evidence); for a fail, the number that failed (generator.healthy:
   * the event-loop delay p99 in ms); null for a skip.
   */
  observed: number | string | null;
  /** One human sentence: why it passed, failed or was skipped. Never contains secrets. */
  detail: string;
}

/** A stretch of the run, in seconds since its start. */
export interface RunWindow {
  fromSec: number;
  toSec: number;
}

export interface ThresholdResult {
  expression: string;
  status: 'pass' | 'fail';
  /**
   * The value of the metric the expression names; null when the metric is absent. For a
   * sliding-window threshold, the value in `window`.
   */
  observed: number | null;
  /**
   * Sliding-window thresholds (`p99[5m]`, since 1.2.0): the first window that failed, else
   * the worst one; `evaluated` counts the windows judged (one per interval).
   */
  window?: RunWindow & { evaluated: number };
}

/** Why an `abortOnFail` threshold stopped the load (since 1.2.0). */
export interface AbortInfo {
  expression: string;
  /** Seconds since the start at which it failed and the load was stopped. */
  atSec: number;
  observed: number | null;
  /** The window that failed; null for a whole-run threshold. */
  window: RunWindow | null;
}

/**
 * Counts keyed by failure code (docs/failure-codes.md). A plain record: reports written by
 * other versions may hold codes this one does not know, and they must still read.
 */
export type FailureCounts = Record<string, number>;

export interface ChatStreamsSummary {
  /** Participants planned (each holds a main stream and one chat-session stream). */
  participants: number;
  /** Chat-session stream opens that answered 200 text/event-stream (includes switches and reopens). */
  opened: number;
  openFailed: number;
  /** openFailed (chat and main) by failure code: `status:<nnn>`, `content-type`, `net:<errno>`, `timeout:<phase>`. */
  openFailures: FailureCounts;
  dropped: number;
  /** Streams (chat and main) the target cut, by failure code: `end`, `net:<errno>`, `timeout:body`, `frame-too-large`. */
  drops: FailureCounts;
  reopened: number;
  switches: number;
  /** Since 1.3.0: streams closed because their participant left as planned (a ramp-down); never failures. */
  leftByPlan?: number;
  /** Since 1.3.0: reconnects after the target dropped a stream, and resumes with Last-Event-ID (stream.resume's evidence). */
  resume?: ResumeSummary;
  stalled: number;
  peakConcurrent: number;
  mainStreams: { opened: number; openFailed: number; dropped: number; peakConcurrent: number; events: Record<string, number> };
  /** Events seen on chat-session streams, by eventType ("<invalid>" for unparseable frames). */
  events: Record<string, number>;
  keepAliveGapMs: HistogramSummary;
  /** Headers → first KEEP_ALIVE, per stream: a first KEEP_ALIVE is late beyond expected + tolerance of it (docs/design.md §6). */
  firstKeepAliveMs: HistogramSummary;
  /** Request sent → first KEEP_ALIVE, per stream: a first KEEP_ALIVE is early below expected − tolerance of it (absent from older reports). */
  firstKeepAliveFromRequestMs?: HistogramSummary;
  /** Per-stream worst KEEP_ALIVE gap, one value per stream lifetime. */
  worstGapMs: HistogramSummary;
  eventLatencyMs: HistogramSummary;
  openLatencyMs: HistogramSummary;
  expectedKeepAliveMs: number;
  keepAliveToleranceMs: number;
  keepAliveViolations: number;
  firstKeepAliveLate: number;
  /** First KEEP_ALIVEs earlier than expected - tolerance after the request was sent (added in 1.1.0: absent from older reports). */
  firstKeepAliveEarly?: number;
  /**
   * Streams whose first KEEP_ALIVE came on time from the request but within a tenth of the
   * interval of the headers: something held the headers until the first event (absent from older reports).
   */
  firstKeepAliveWithHeaders?: number;
  /** Of keepAliveViolations, gaps shorter than a tenth of the interval: KEEP_ALIVEs in bursts (absent from older reports). */
  keepAliveBunched?: number;
  /** Of stalled, streams that received nothing after their headers (absent from older reports). */
  stalledSilentAfterHeaders?: number;
  /** Streams watched for longer than the stall window, 2 × the interval: stream.stall's evidence (added in 1.1.0: absent from older reports). */
  streamsPastStallWindow?: number;
  isolationViolations: number;
  schemaViolations: number;
  /** schemaViolations by kind: invalid-json, unknown-event-type, member-payload, decision-payload, message-payload. */
  schemaViolationKinds: Record<string, number>;
  messagesSent: number;
  messagesFailed: number;
  messagesLateSlots: number;
  messagesDroppedSlots: number;
  deliveriesExpected: number;
  deliveriesReceived: number;
  deliveriesMissing: number;
  duplicates: number;
  membershipOps: number;
  membershipOpsFailed: number;
  /** The first few failure samples, redacted, for humans. */
  samples: string[];
}

export type WorkloadModel = 'open' | 'closed';

export interface ThroughputSummary {
  model: WorkloadModel;
  requests: number;
  errors: number;
  errorRate: number;
  /** Failed requests by failure code (docs/failure-codes.md); a request counts once under each code it showed. */
  errorsByKind: FailureCounts;
  statusCodes: Record<string, number>;
  throughputPerSec: number;
  /** Open model: the requested arrival rate (req/s); closed model: null. */
  requestedRatePerSec: number | null;
  /** Open model: slots started later than their intended start by more than the lateness bound. */
  lateSlots: number;
  /** Open model: slots never started because the concurrency bound was reached. */
  droppedSlots: number;
  /** Open model: from the intended start (coordinated-omission corrected). Closed model: actual start. */
  latencyMs: HistogramSummary;
  /** From the actual start of each request (service time). */
  serviceTimeMs: HistogramSummary;
  /** Seconds the scenario ran (the throughput denominator). */
  activeSeconds: number;
}

export interface PhotoUploadSummary extends ThroughputSummary {
  overrideRequests: number;
  bytesSent: number;
}

export interface TagLinkSummary extends ThroughputSummary {
  tagsCreated: number;
  /** Existing names that the target created again or returned (tags.existing.ignored evidence). */
  existingReturned: number;
}

/** One request kind of the `requests` scenario (docs/design.md §2.15); since 1.7.0. */
export interface RequestKindSummary extends ThroughputSummary {
  method: string;
  /** The path template, as the profile wrote it. */
  path: string;
  /** Its share of the mix's load (0..1), or null when it had a load of its own. */
  share: number | null;
}

export interface GeneratorSummary {
  /** The driver processes' main loops: streams and, unless requestLoopDelayMs is present, requests too. */
  eventLoopDelayMs: HistogramSummary;
  /**
   * Since 1.5.0, present when requests ran on their own thread beside streams (docs/design.md §6):
   * that thread's loop, which paces and times them. The bound holds for each loop.
   */
  requestLoopDelayMs?: HistogramSummary;
  /** Process CPU time / wall time, in percent of one core, per process (max over workers). */
  cpuPercent: number;
  rssBytes: number;
  peakRssBytes: number;
  saturated: boolean;
  /** The event-loop delay p99 bound above which the generator counts as saturated. */
  maxEventLoopDelayP99Ms: number;
  processes: number;
  /** Since 1.5.0: the judged intervals (after the warm-up) in which a driver process fell behind. */
  behind?: GeneratorBehind;
}

/**
 * Intervals after the warm-up in which some driver process's event-loop delay p99 exceeded the
 * bound: the seconds the run measured its own lag. More than `maxShare` of the judged run fails
 * generator.healthy even when the run-wide p99 is within the bound (a stalled ramp in a long run).
 */
export interface GeneratorBehind {
  intervals: number;
  seconds: number;
  /** seconds / the judged run's seconds (0 with nothing judged). */
  share: number;
  maxShare: number;
}

/** One point per interval; resolution adapts so a long soak has a bounded number of points. */
export interface TimeseriesPoint {
  /** Seconds since run start at the end of the interval. */
  tSec: number;
  intervalSec: number;
  streamsOpen: number;
  mainStreamsOpen: number;
  /**
   * Optional (absent from older reports): stream-seconds held in the interval, chat and main
   * streams together, time-weighted (load.achieved's evidence; / intervalSec = mean streams held).
   */
  streamSeconds?: number;
  events: number;
  eventsPerSec: number;
  keepAlives: number;
  keepAliveViolations: number;
  errors: number;
  requests: number;
  requestsPerSec: number;
  messagesSent: number;
  eventLatencyP99Ms: number | null;
  requestLatencyP99Ms: number | null;
  eventLoopDelayP99Ms: number | null;
  /**
   * Since 1.2.0 (absent from older reports): the p50 and p90 beside the p99s above, so the
   * report can draw latency bands. A merged or compacted point holds an upper bound (docs/reports.md).
   */
  eventLatencyP50Ms?: number | null;
  eventLatencyP90Ms?: number | null;
  requestLatencyP50Ms?: number | null;
  requestLatencyP90Ms?: number | null;
  rssBytes: number;
  /** Inside the profile's `warmup`: shown, but ignored by thresholds (since 1.2.0; absent when false). */
  warmup?: true;
  /**
   * Since 1.5.0 (absent when false): a driver process's event-loop delay p99 over this interval
   * exceeded `generator.maxEventLoopDelayP99Ms`, so its latencies include the driver's own lag.
   */
  generatorBehind?: true;
  /**
   * Since 1.6.0 (absent when no request of the interval carried a traceparent): per scenario,
   * the interval's slowest traced requests with their trace ids, slowest first, at most 5
   * (docs/design.md §2.12). A merged or compacted point keeps the slowest of its parts.
   */
  slowest?: Record<string, SlowRequest[]>;
}

export interface ResumeSummary {
  /** First reopens after a drop (chat and main streams). */
  reconnects: number;
  /** From the drop to the reopen request: the target's `retry:`, else the backoff. */
  reconnectDelayMs: HistogramSummary;
  /** Reconnects answered 200 that were sent with Last-Event-ID. */
  resumed: number;
  /** Events received on a resumed stream before its first KEEP_ALIVE (the replay). */
  eventsRecovered: number;
  /** Events the target should have replayed and did not (the first id after a resume skipped past them). */
  lost: number;
  /** Events a resumed stream got again (an id at or below the one it resumed from). */
  duplicated: number;
  /** Reconnects after a drop of a stream that never carried an event id: the target cannot resume. */
  notResumable: number;
  /**
   * Reconnects after a drop whose last event id could not be sent back as Last-Event-ID (a
   * control character, or longer than 1 KiB): the target's fault, reconnected without it.
   * Absent from reports written before it was counted.
   */
  idsUnsendable?: number;
}

/** Bearer-token renewal over the run (engine/auth/credentials.ts); counts of every driver process together. */
export interface AuthSummary {
  /** Runs of --token-command that gave new tokens (the one before the run is not counted), and how long they took. */
  refreshes: number;
  refreshMs: HistogramSummary;
  /** Runs that failed (exit code, timeout, unreadable output); their masked stderr is in the samples. */
  refreshFailures: number;
  /** Requests and stream opens answered 401 that waited for a refresh. */
  waited: number;
  /** Requests and stream opens sent again with a renewed token. */
  resent: number;
  /** Closed model: 401s to a token being replaced, not counted as answers (autocannon cannot send again). */
  staleAnswers: number;
  /** 401s to a token that had just been renewed: auth.token.refresh fails on any. */
  rejectedAfterRefresh: number;
  /** The fixtures file re-read after it changed on disk, and re-reads that did not validate (tokens kept). */
  fixturesReloads: number;
  fixturesReloadFailures: number;
}

export interface TransportInfo {
  /** The target URL is https. */
  tls: boolean;
  /** Certificates were NOT verified (`--insecure`): the run proves nothing about the target's TLS. */
  insecure: boolean;
  /** Extra CA certificates trusted besides the system roots (`--ca`). */
  extraCas: number;
  clientCertificate: boolean;
  servername: string | null;
  /** `env` (HTTP_PROXY/HTTPS_PROXY/NO_PROXY), `none` (--no-proxy) or `url` (--proxy). */
  proxy: 'env' | 'none' | 'url';
  /** Names of the headers added to every request (values may be secrets and are not kept). */
  headers: string[];
  userAgent: string;
  /** Since 1.4.0: the HTTP version asked for (`--http`). */
  http?: '1.1' | '2' | 'auto';
  /**
   * Since 1.4.0: connections opened, by driver (`requests`: the request pool; `streams`:
   * stream and participant connections; `closedModel`) and the protocol each spoke
   * (`h2`, `h2c`, `http/1.1`): what was negotiated, not what was asked.
   */
  protocols?: Record<string, Record<string, number>>;
}

export interface StartInfo {
  plannedAt: string;
  actualAt: string;
  /** actualAt - plannedAt, in ms (the waiting's own error: a timer's lateness). */
  skewMs: number;
}

/** One named stage of the run (docs/design.md §2.11), over its intervals after the warm-up. */
export interface StageSummary {
  name: string;
  startSec: number;
  endSec: number;
  /** Intervals whose middle fell inside the stage (0: a step, or all inside the warm-up). */
  intervals: number;
  chatStreams: { peakConcurrent: number; eventLatencyP50Ms: number | null; eventLatencyP99Ms: number | null; keepAliveViolations: number } | null;
  /** Photo upload and tag link, each when enabled. */
  requests: Array<{
    scenario: 'photoUpload' | 'tagLink' | `requests.${string}`;
    requests: number;
    perSec: number;
    errorRate: number;
    latencyP99Ms: number | null;
  }>;
  /** The stage's totals, HDR-encoded: `coachbench merge` adds shards' stages exactly. */
  metrics: EncodedMetrics;
}

export interface TargetInfo {
  url: string;
  embedded: boolean;
  /** The embedded target's faults, when any were injected. */
  faults?: string[];
}

export interface ShardInfo {
  index: number;
  count: number;
}

/** One load step of a capacity search. */
export interface CapacityStep {
  load: number;
  /** Every SLO held and no check failed. */
  pass: boolean;
  /** Observed value of each SLO expression's metric (null when absent). */
  values: Record<string, number | null>;
  failedChecks: string[];
  /** The step's own report folder, relative to the search's. */
  reportDir: string;
}

/** The result of a capacity search (profiles with a `search` block). */
export interface CapacityResult {
  variable: string;
  loadUnit: string;
  slos: string[];
  steps: CapacityStep[];
  /** The largest load that held every SLO (the knee), or null if even the first step broke. */
  maxSustainableLoad: number | null;
  firstFailingLoad: number | null;
  stoppedBecause: 'max' | 'slo' | 'saturated' | 'interrupted';
}

/** `incomplete`: nothing failed, but a core check has no evidence (docs/design.md §5.6). */
export type Verdict = 'pass' | 'fail' | 'incomplete';

export interface Report {
  schemaVersion: string;
  tool: { name: 'coachbench'; version: string };
  runId: string;
  startedAt: string;
  endedAt: string;
  durationMs: number;
  interrupted: boolean;
  /** Set when an `abortOnFail` threshold failed and stopped the load (verdict fail; since 1.2.0). */
  aborted?: AbortInfo;
  verdict: Verdict;
  /**
   * The checks this profile's enabled scenarios imply (added in 1.1.0): a run in which any
   * of them was skipped for want of evidence, and none failed, is `incomplete`.
   */
  coreChecks?: CheckId[];
  target: TargetInfo;
  /** The resolved profile, as run. */
  profile: Record<string, unknown> & { name: string };
  shard: ShardInfo | null;
  /** Shards merged into this report (merge only). */
  mergedFrom?: string[];
  /**
   * What the run was of (since 1.2.0; absent from older reports and from runs that had
   * none): every `run --label key=value`, and `gitSha` from the CI environment
   * (GIT_SHA, GITHUB_SHA or CI_COMMIT_SHA) unless a label gives it. `coachbench trend`
   * names change points by them; `release` is the label for a release.
   */
  labels?: Record<string, string>;
  /**
   * Since 1.6.0, `run --trace-url` (or `report --trace-url`): the URL template, with
   * `{traceId}`, that report.html links the slowest requests' trace ids to (docs/design.md §2.12).
   */
  traceUrl?: string;
  /** Since 1.4.0, runs that renewed bearer tokens (docs/design.md §2.13): refreshes, waits, resends, 401s after a refresh. */
  auth?: AuthSummary;
  /** Since 1.3.0: how the run reached its target (TLS trust, proxy, extra header names; never values or key material). */
  transport?: TransportInfo;
  /** Since 1.3.0, `--start-at` runs: when load was to start, when this run started it, and the difference. */
  start?: StartInfo;
  /** Since 1.3.0, merged reports of `--start-at` shards: each shard's start and how far apart they were. */
  shardStarts?: { plannedAt: string; spreadMs: number; shards: Array<{ index: number; actualAt: string; skewMs: number }> };
  /** Since 1.3.0: the load the profile planned, per scenario, as stages (docs/design.md §2.11). */
  plan?: RunPlan;
  /** Since 1.3.0: the headline metrics of each named stage (absent when the profile names none). */
  stages?: StageSummary[];
  checks: CheckResult[];
  thresholds: ThresholdResult[];
  scenarios: {
    chatStreams: ChatStreamsSummary | null;
    photoUpload: PhotoUploadSummary | null;
    tagLink: TagLinkSummary | null;
    /** Since 1.7.0, profiles with a `requests` section: each request kind by name (docs/design.md §2.15). */
    requests?: Record<string, RequestKindSummary>;
  };
  generator: GeneratorSummary;
  timeseries: TimeseriesPoint[];
  /** Capacity search runs: the load steps and the knee; the rest of the report is the knee's step. */
  capacity?: CapacityResult;
  /** `--workers` runs: each driver process's share and its own counter totals (null if it died). */
  workers?: Array<{ index: number; participants: number; counters: Record<string, number> | null }>;
  /** Problems worth a reader's attention that are not check failures (worker died, late slots). */
  warnings: string[];
  /**
   * The raw run totals every summary above is derived from. `coachbench merge` adds these
   * (exactly: counters sum, HDR histograms add) and re-derives scenarios, checks and thresholds.
   */
  metrics: EncodedMetrics;
}
