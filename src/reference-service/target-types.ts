/**
 * The reference target's public contract: `startTarget()` is used by `coachbench serve`,
 * by `coachbench run` (the embedded default) and by every integration test.
 */
import type { Fixtures } from '../contract/fixtures.js';
import type { TargetTls } from './http/tls-identity.js';

/** One injected fault (docs/design.md §4). PCT faults hold a fraction 0..1 in `value`. */
export type FaultName = 'keepalive-drift' | 'stall' | 'drop' | 'error-rate' | 'latency' | 'duplicate' | 'leak' | 'bad-json' | 'resume-gap';

export interface Fault {
  name: FaultName;
  /** Percentages as a fraction in 0..1; `latency` in milliseconds. */
  value: number;
  /** Switched on this long after the target starts listening (`--fault latency=200ms@30s`); absent: from the start. */
  atMs?: number;
  /**
   * Only this route (`error-rate=100 on POST /tags`), as `METHOD /path` with each parameter
   * segment written `:` (`GET /participants/:/chat_sessions/:`); absent: the fault's own scope.
   */
  route?: string;
}

export interface TargetOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** KEEP_ALIVE interval per stream. Default 15,000 ms. */
  keepAliveMs?: number;
  /** Participants to seed, each with chat sessions and a bearer token. Default 100. */
  participants?: number;
  /** Chat sessions per seeded participant. Default 3. */
  sessionsPerParticipant?: number;
  /** Seed for deterministic ids and tokens. Default 1. */
  seed?: number;
  /** Faults, parsed (`parseFault`) or as `--fault` specs such as "drop=5". */
  faults?: Array<Fault | string>;
  /** The API key the target accepts. Default derived from the seed. */
  apiKey?: string;
  /**
   * Processes serving the port (node:cluster): 1 (default) serves in this process; N > 1 forks
   * N workers from the compiled `service-worker-main.js` beside the calling module (the CLI's
   * bundle, or dist/ when calling from src: run `npm run build` first); `auto` = available cores.
   * See docs/target.md "Workers".
   */
  workers?: number | 'auto';
  /** `retry: <ms>` sent on every stream open (the client's reconnection time); default: none sent. */
  sseRetryMs?: number;
  /** Bearer tokens expire this long after they are issued (401 `invalid_token`); POST /_coachbench/tokens issues new ones. Single-process targets only. */
  tokenTtlMs?: number;
  /** Serve HTTP/2 (docs/target.md "HTTP/2"): h2 beside HTTP/1.1 over TLS (ALPN), h2c (prior knowledge) in plain text. */
  http2?: boolean;
  /**
   * Send `X-Accel-Buffering: no` on every stream (default true). False reproduces a target
   * unaware of proxies, which an nginx at its default (`proxy_buffering on`) buffers.
   */
  accelBufferingHeader?: boolean;
  /** Serve HTTPS with this identity (PEM); `'self-signed'` generates one for the loopback names. Default: plain HTTP. */
  tls?: TargetTls | 'self-signed';
  /** Append a JSON line per request that carried a W3C traceparent to this file (`serve --log-traces`). */
  traceLogFile?: string;
}

export interface TargetStats {
  /** Open SSE streams (chat-session + main) right now. */
  openStreams: number;
  openChatStreams: number;
  openMainStreams: number;
  /** Timers and listeners held for streams; returns to 0 when every stream is closed. */
  streamHandles: number;
  /** Non-KEEP_ALIVE event frames written (duplicates and leaked copies included). */
  eventsSent: number;
  requests: number;
  /** KEEP_ALIVE frames written. */
  keepAlivesSent?: number;
  /** KEEP_ALIVE timer lateness (write time minus due time), ms, 0.1 ms buckets. */
  keepAliveLateMs?: { count: number; p50: number; p99: number; p999: number; max: number };
  /** Under `--workers`: each worker's own figures (the fields above are their sums). */
  perWorker?: TargetWorkerStats[];
}

/** One worker's counters and resources (`serve --workers N`). */
export interface TargetWorkerStats extends Omit<TargetStats, 'perWorker'> {
  /** 1..N, the `X-Coachbench-Worker` header value. */
  index: number;
  pid: number;
  rssBytes: number;
  /** CPU time (user + system) the worker used since it started. */
  cpuMs: number;
}

/** A worker process of a multi-worker target. */
export interface TargetWorker {
  index: number;
  pid: number;
  /** The worker's open-file limit (each stream holds one descriptor), null when unknown. */
  fdLimit: number | null;
}

export interface RunningTarget {
  /** Base URL without the /api/v1 prefix, e.g. http://127.0.0.1:41234 (https:// when it serves TLS) */
  url: string;
  /** The certificate (PEM) a client must trust to reach an HTTPS target (its own CA when self-signed); null for HTTP. */
  certificate: string | null;
  port: number;
  keepAliveMs: number;
  faults: Fault[];
  /** Participants, tokens, API key and a coach token for this target. */
  fixtures: Required<Pick<Fixtures, 'apiKey' | 'coachToken'>> & Fixtures;
  /** The seeded connector principal's bearer token (a second staff role for tests). */
  connectorToken?: string;
  stats(): TargetStats;
  /** Starts a new window for `stats().keepAliveLateMs` (e.g. after a benchmark's ramp-up). */
  resetKeepAliveLateness?(): void;
  /**
   * Exact stats now. `stats()` is synchronous, so under `--workers` it sums the snapshots the
   * workers push every 100 ms; this asks every worker and waits for the answers.
   */
  collectStats?(): Promise<TargetStats>;
  /** Under `--workers`: the worker processes (absent for a single-process target). */
  workers?: TargetWorker[];
  /**
   * Under `--workers`: resolves with a one-line reason when a worker died unexpectedly; the
   * target has then stopped its other workers (it does not restart them). Never rejects.
   */
  failed?: Promise<string>;
  /** Closes every stream and the server; resolves when all sockets are gone. */
  close(): Promise<void>;
}
