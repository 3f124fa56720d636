/** The on-disk shape of a profile (schemas/profile.schema.json): human durations, optional fields. */
type Duration = string | number;

/** One stage of a load shape (docs/design.md §2.11). */
export interface StageFile {
  duration: Duration;
  target: number | 'hold';
  name?: string;
}

export interface ThroughputFile {
  enabled?: boolean;
  model?: 'open' | 'closed';
  ratePerSec?: number;
  rampToPerSec?: number;
  arrivals?: 'uniform' | 'poisson';
  maxInFlight?: number;
  connections?: number;
  timeout?: Duration;
  stages?: StageFile[];
}

/** One request as templates (docs/design.md §2.15). */
export interface RequestTemplateFile {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  /** A JSON value whose strings are templates, or a string: a JSON text template. */
  body?: unknown;
  multipart?: Array<{ name: string; value: string; filename?: string; contentType?: string }>;
  credential?: 'participant' | 'coach' | 'apiKeyOnly';
}

export interface RequestKindFile extends RequestTemplateFile {
  name: string;
  expect?: { status?: number[]; mediaType?: string; schema?: Record<string, unknown> | boolean; headers?: string[] };
  weight?: number;
  load?: ThroughputFile;
}

export interface SetupRequestFile extends RequestTemplateFile {
  expectStatus?: number[];
  capture?: Record<string, string>;
}

export interface RequestsFile extends ThroughputFile {
  setup?: SetupRequestFile[];
  kinds: RequestKindFile[];
}

/** A threshold that may stop the run (k6's names): `{ "threshold": "...", "abortOnFail": true, "delayAbortEval": "10s" }`. */
export interface ThresholdFile {
  threshold: string;
  abortOnFail?: boolean;
  delayAbortEval?: Duration;
}

export interface ProfileFile {
  name: string;
  description?: string;
  duration?: Duration;
  seed?: number;
  expectKeepAlive?: Duration;
  keepAliveTolerance?: Duration;
  target?: {
    keepAlive?: Duration;
    participants?: number;
    sessionsPerParticipant?: number;
    seed?: number;
    faults?: string[];
    tls?: 'self-signed';
    sseRetry?: Duration;
    /** The embedded target serves HTTP/2 (h2 + HTTP/1.1 over TLS, h2c in plain text). */
    http2?: boolean;
  };
  chatStreams?: {
    enabled?: boolean;
    participants?: number;
    rampPerSec?: number;
    switchEvery?: Duration;
    mainStream?: boolean;
    openTimeout?: Duration;
    reopenBase?: Duration;
    reopenMax?: Duration;
    messageRatePerSec?: number;
    messageArrivals?: 'uniform' | 'poisson';
    churnRatePerSec?: number;
    maxFrameBytes?: string | number;
    stages?: StageFile[];
  };
  photoUpload?: ThroughputFile & { imageSizes?: Array<string | number>; formats?: Array<'jpeg' | 'png' | 'webp'>; overrideShare?: number };
  tagLink?: ThroughputFile & { tagsPerRequest?: number; existingShare?: number };
  requests?: RequestsFile;
  warmup?: Duration;
  thresholds?: Array<string | ThresholdFile>;
  generator?: { maxEventLoopDelayP99?: Duration };
  tls?: { ca?: string | string[]; cert?: string; key?: string; servername?: string; insecure?: boolean };
  headers?: Record<string, string>;
  workers?: { onWorkerExit?: 'fail' | 'continue' };
  search?: Record<string, unknown>;
}
