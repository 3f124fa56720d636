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

/** Which credentials a request kind sends (docs/design.md §2.15): X-API-Key always, and a bearer token unless `apiKeyOnly`. */
export type RequestCredential = 'participant' | 'coach' | 'apiKeyOnly';

/** An HTTP method a request kind may use. */
export type RequestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request's body as templates (request-template.ts): a JSON text, or multipart parts. */
export type RequestBodyTemplate = { json: string } | { multipart: Array<{ name: string; value: string; filename?: string; contentType?: string }> } | null;

/** One request as templates: what a kind sends, and what a setup step sends once. */
export interface RequestTemplate {
  method: RequestMethod;
  /** Path under the API base (`/participants/{userId}/enrolments`). */
  path: string;
  headers: Record<string, string>;
  body: RequestBodyTemplate;
  credential: RequestCredential;
}

/** What an answer must be for a request of a kind to hold (`requests.expectations`). */
export interface RequestExpectation {
  status: number[];
  /** Media type of the answer (no parameters, lower-case); null: not checked. */
  mediaType: string | null;
  /** JSON Schema (2020-12) the body must match; null: not checked. */
  schema: Record<string, unknown> | boolean | null;
  /** Response headers that must be present (lower-case). */
  headers: string[];
}

/** One named request kind of the `requests` scenario, with its own load (its share of the mix, or its own). */
export interface RequestKindSettings extends ThroughputSettings, RequestTemplate {
  name: string;
  expect: RequestExpectation;
  /** Its share (0..1) of the mix's load; null when the kind has a load of its own. */
  share: number | null;
}

/** A request sent once by each driver process before the load, whose answer fills `{setup.NAME}` values. */
export interface SetupRequestSettings extends RequestTemplate {
  expectStatus: number[];
  /** Variable name → JSON Pointer into the answer (`/0`, `/userId`). */
  capture: Record<string, string>;
}

/** The `requests` scenario: named request kinds, each loaded and judged like the built-ins. */
export interface RequestsSettings {
  setup: SetupRequestSettings[];
  kinds: RequestKindSettings[];
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
  /** The `requests` scenario (docs/design.md §2.15); absent when the profile has none (and from older reports). */
  requests?: RequestsSettings;
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
