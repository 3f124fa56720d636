/**
 * Metric names shared by drivers (which count) and summary builders (which read).
 * Histograms hold integer microseconds and end in `Us`.
 */
export type ThroughputScenario = 'photoUpload' | 'tagLink';

/** Names of one throughput scenario's metrics. */
export function throughputNames(scenario: ThroughputScenario) {
  return {
    requests: `${scenario}.requests`,
    errors: `${scenario}.errors`,
    /** Prefix: `${scenario}.status.<code>`. */
    status: (code: number | string) => `${scenario}.status.${code}`,
    /** Prefix: `${scenario}.error.<failure code>` (docs/failure-codes.md). */
    errorKind: (failure: string) => `${scenario}.error.${failure}`,
    lateSlots: `${scenario}.lateSlots`,
    droppedSlots: `${scenario}.droppedSlots`,
    /** From the intended start (open model) or the actual start (closed model). */
    latencyUs: `${scenario}.latencyUs`,
    serviceTimeUs: `${scenario}.serviceTimeUs`,
    /** Peak (not counter): how long the scenario ran, ms; shards running side by side take the max. */
    activeMs: `${scenario}.activeMs`,
  } as const;
}

/** Connections by the driver that opened them and the protocol they speak (report.json transport.protocols). */
export const CONNECTIONS_PREFIX = 'transport.connections.';
export const connectionsName = (driver: 'requests' | 'streams' | 'closedModel', protocol: string): string => `${CONNECTIONS_PREFIX}${driver}.${protocol}`;

/** Bearer-token renewal (engine/auth/credentials.ts, docs/design.md §2.13). */
export const AUTH = {
  /** Runs of --token-command that gave new tokens, and their wall time. */
  refreshes: 'auth.refreshes',
  refreshUs: 'auth.refreshUs',
  refreshFailures: 'auth.refreshFailures',
  /** Requests and stream opens refused with 401 that waited for a refresh. */
  waited: 'auth.waited',
  /** Requests and stream opens sent again with a renewed token after a 401. */
  resent: 'auth.resent',
  /** Closed model: 401s to a token being replaced, not counted as answers (autocannon cannot resend). */
  staleAnswers: 'auth.staleAnswers',
  /** 401s to a token that had just been renewed: the auth.token.refresh check's failure evidence. */
  rejectedAfterRefresh: 'auth.rejectedAfterRefresh',
  /** Re-reads of the fixtures file after it changed on disk, and re-reads that failed validation. */
  fixturesReloads: 'auth.fixturesReloads',
  fixturesReloadFailures: 'auth.fixturesReloadFailures',
} as const;

export const CHAT = {
  opened: 'chat.opened',
  openFailed: 'chat.openFailed',
  /** Chat and main stream opens that failed, by failure code. */
  openFailure: (failure: string) => `chat.openFailed.${failure}`,
  dropped: 'chat.dropped',
  /** Chat and main streams the target cut, by failure code. */
  drop: (failure: string) => `chat.dropped.${failure}`,
  reopened: 'chat.reopened',
  switches: 'chat.switches',
  /** Streams closed because their participant left as the population plan ramped down. */
  leftByPlan: 'chat.leftByPlan',
  /** Reopens after a drop, and the time from the drop to the reopen request. */
  reconnects: 'chat.reconnects',
  reconnectDelayUs: 'chat.reconnectDelayUs',
  /** Reconnects answered with Last-Event-ID sent (stream.resume's evidence), events replayed, lost and repeated across them. */
  resumes: 'chat.resumes',
  resumeRecovered: 'chat.resumeRecovered',
  resumeLost: 'chat.resumeLost',
  resumeDuplicated: 'chat.resumeDuplicated',
  /** Reconnects after a drop of a stream whose target never sent an event id: nothing to resume from. */
  notResumable: 'chat.notResumable',
  stalled: 'chat.stalled',
  /** Peak gauge. */
  open: 'chat.open',
  /**
   * Time-weighted open streams, chat and main together: each µs a stream is open adds one
   * (stream-µs). load.achieved compares it with the planned population (docs/design.md §5.4).
   */
  heldStreamUs: 'chat.heldStreamUs',
  event: (type: string) => `chat.events.${type}`,
  keepAliveGapUs: 'chat.keepAliveGapUs',
  firstKeepAliveUs: 'chat.firstKeepAliveUs',
  worstGapUs: 'chat.worstGapUs',
  eventLatencyUs: 'chat.eventLatencyUs',
  openLatencyUs: 'chat.openLatencyUs',
  keepAlives: 'chat.keepAlives',
  keepAliveViolations: 'chat.keepAliveViolations',
  /** Of keepAliveViolations, those in intervals a driver fell behind in (counted by the collector). */
  keepAliveViolationsBehind: 'chat.keepAliveViolationsBehind',
  firstKeepAliveLate: 'chat.firstKeepAliveLate',
  firstKeepAliveEarly: 'chat.firstKeepAliveEarly',
  /** Streams (chat and main) that lived longer than the stall window. */
  streamsPastStallWindow: 'chat.streamsPastStallWindow',
  isolationViolations: 'chat.isolationViolations',
  schemaViolations: 'chat.schemaViolations',
  schemaViolation: (kind: string) => `chat.schema.${kind}`,
  messagesSent: 'chat.messagesSent',
  messagesFailed: 'chat.messagesFailed',
  messagesLateSlots: 'chat.messagesLateSlots',
  messagesDroppedSlots: 'chat.messagesDroppedSlots',
  deliveriesExpected: 'chat.deliveriesExpected',
  deliveriesReceived: 'chat.deliveriesReceived',
  deliveriesMissing: 'chat.deliveriesMissing',
  duplicates: 'chat.duplicates',
  membershipOps: 'chat.membershipOps',
  membershipOpsFailed: 'chat.membershipOpsFailed',
  /** Samples key for human-readable stream failures. */
  samples: 'chat',
} as const;

export const MAIN = {
  opened: 'main.opened',
  openFailed: 'main.openFailed',
  dropped: 'main.dropped',
  open: 'main.open',
  event: (type: string) => `main.events.${type}`,
} as const;

export const GENERATOR = {
  loopDelayUs: 'generator.loopDelayUs',
  /** The request thread's own loop (docs/design.md §6), apart so a stalled stream loop is not diluted by it, nor it by the other. */
  requestLoopDelayUs: 'generator.requestLoopDelayUs',
  cpuUs: 'generator.cpuUs',
  wallUs: 'generator.wallUs',
  rssBytes: 'generator.rssBytes',
  /** Driver loops (processes, request threads) whose event-loop delay p99 over one interval exceeded the bound: they fell behind. */
  behindProcesses: 'generator.behindProcesses',
  /** Length of the intervals after the warm-up (what `behindUs` is a share of), and of those a process fell behind in. */
  judgedUs: 'generator.judgedUs',
  behindUs: 'generator.behindUs',
  behindIntervals: 'generator.behindIntervals',
} as const;
