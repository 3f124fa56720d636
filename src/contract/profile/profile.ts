/**
 * A resolved profile: every duration in milliseconds, every default filled in.
 * Profile files (profiles/*.json, schemas/profile.schema.json) use the same names with
 * human durations ("30s") and may omit anything that has a default.
 */
import type { WorkloadModel } from '../report.js';
import type { PlannedStage } from './stage-plan.js';

/**
 * How an open-model schedule places its arrivals (docs/design.md §6): `uniform`, the i-th at
 * the instant the plan expects i arrivals (evenly spaced at a constant rate); `poisson`,
 * exponential gaps at the plan's instantaneous rate, drawn from the run's seed.
 */
export type ArrivalProcess = 'uniform' | 'poisson';

export interface EmbeddedTargetSettings {
  /** KEEP_ALIVE interval of the embedded target. */
  keepAliveMs: number;
  participants: number;
  sessionsPerParticipant: number;
  seed: number;
  /** `--fault` specs for the embedded target (e.g. "drop=5"); for tests and demos. */
  faults: string[];
  /** `retry:` the embedded target sends on each stream open (ms), or null (none). */
  sseRetryMs: number | null;
  /** The embedded target serves HTTP/2 (docs/design.md §2.14). */
  http2: boolean;
  /** `"self-signed"`: the embedded target serves HTTPS with a throwaway pair the run trusts; null: HTTP. */
  tls: 'self-signed' | null;
}

export interface ChatStreamsSettings {
  enabled: boolean;
  /** Virtual participants; each holds a main stream and one chat-session stream. */
  participants: number;
  /** Participants started per second during the ramp. */
  rampPerSec: number;
  /** Each participant switches to another of its sessions this often (0: never). */
  switchEveryMs: number;
  /** Hold the main participant stream (API endpoint 1, docs/design.md §4). */
  mainStream: boolean;
  /** Request-to-headers bound for a stream open. */
  openTimeoutMs: number;
  /** Capped exponential backoff with full jitter for reopening a dropped stream. */
  reopenBaseMs: number;
  reopenMaxMs: number;
  /** Injected chat messages per second (open model, absolute schedule; 0: off). */
  messageRatePerSec: number;
  /** How the injected messages arrive (uniform or Poisson at messageRatePerSec). */
  messageArrivals: ArrivalProcess;
  /** Membership operations per second through the membership extension (0: off). */
  churnRatePerSec: number;
  /** Longest SSE line or event a stream buffers; beyond it the stream drops as `frame-too-large` (docs/design.md §6). */
  maxFrameBytes: number;
  /** The population over time (participants); null: ramp at rampPerSec to `participants` and hold. */
  stages: PlannedStage[] | null;
}

export interface ThroughputSettings {
  enabled: boolean;
  model: WorkloadModel;
  /** Open model: arrival rate at the start (req/s). */
  ratePerSec: number;
  /** Open model: arrival rate at the end; equal to ratePerSec for a constant rate. */
  rampToPerSec: number;
  /** Open model: how arrivals are placed on the rate's plan (uniform or Poisson). */
  arrivals: ArrivalProcess;
  /** Open model: most requests in flight; a slot beyond it is dropped and counted. */
  maxInFlight: number;
  /** Closed model: connections, each sending back to back. */
  connections: number;
  timeoutMs: number;
  /** Open model: the arrival rate over time (req/s); null: ratePerSec to rampToPerSec over the run. */
  stages: PlannedStage[] | null;
}

export interface PhotoUploadSettings extends ThroughputSettings {
  /** Image sizes of the generated corpus, bytes. */
  imageSizes: number[];
  formats: Array<'jpeg' | 'png' | 'webp'>;
  /** Share (0..1) of uploads that use the `name` override instead of the default `filename` part. */
  overrideShare: number;
}

export interface TagLinkSettings extends ThroughputSettings {
  tagsPerRequest: number;
  /** Share (0..1) of names per request that already exist. */
  existingShare: number;
}

/** A threshold that stops the load when it fails during the run (k6's `abortOnFail`). */
export interface AbortRule {
  /** One of Profile.thresholds. */
  expression: string;
  /** k6's `delayAbortEval`: no abort before this long after the start. */
  delayAbortEvalMs: number;
}

/** TLS settings a profile may carry: paths (absolute once loaded), never key material. */
export interface ProfileTls {
  ca: string[];
  cert: string | null;
  key: string | null;
  servername: string | null;
  insecure: boolean;
}

export interface Profile {
  name: string;
  description: string;
  /** Where the profile came from (file path or built-in name). */
  source: string;
  durationMs: number;
  /**
   * Seed of the driver's random draws (Poisson arrivals): `--seed`, else the profile's, else 1.
   * The same seed, profile and process layout give the same schedule. Absent from reports written before it existed.
   */
  seed: number;
  /** KEEP_ALIVE interval the driver expects; null means the embedded target's own, else 15 s. */
  expectKeepAliveMs: number | null;
  /** The tolerance as written ("10%" or a duration); resolved against the interval the run expects. */
  keepAliveToleranceText: string | number | null;
  target: EmbeddedTargetSettings;
  chatStreams: ChatStreamsSettings;
  photoUpload: PhotoUploadSettings;
  tagLink: TagLinkSettings;
  /** Every threshold expression, plain or from an object entry. */
  thresholds: string[];
  /** The thresholds whose entry said `abortOnFail` (absent from reports written before it existed). */
  abortOnFail?: AbortRule[];
  /** Leading part of the run that thresholds ignore; 0: none (absent from older reports). */
  warmupMs?: number;
  generator: { maxEventLoopDelayP99Ms: number };
  /** TLS to the target (docs/design.md §2.12); flags win. Absent from reports written before 1.3.0. */
  tls: ProfileTls;
  /** Extra headers for every request and stream; values may name `${ENV_VARS}`. */
  headers: Record<string, string>;
  workers: { onWorkerExit: 'fail' | 'continue' };
  /** Capacity search; present only in capacity profiles. */
  search: Record<string, unknown> | null;
}
