/** The parent ↔ worker protocol (node IPC, advanced serialization). */

import type { EncodedMetrics } from '../../contract/encoded-metrics.js';
import type { KeepAliveExpectation } from '../../contract/keep-alive.js';
import type { Profile } from '../../contract/profile/profile.js';
import type { CredentialSources } from '../../engine/auth/credentials.js';
import type { RunFixtures } from '../../engine/scenario.js';
import type { Transport } from '../../engine/transport.js';

export interface WorkerJob {
  workerIndex: number;
  /** This process's index among all of the run's (shard index + shards × worker index): its random streams of the seed. */
  arrivalStream: number;
  /** This worker's share of the profile (rates divided) and of the participants. */
  profile: Profile;
  fixtures: RunFixtures;
  targetUrl: string;
  keepAlive: KeepAliveExpectation;
  /** Secrets the worker must redact too. */
  secrets: string[];
  /** TLS (PEM text), extra headers and proxy of the run. */
  transport: Transport;
  /** `--start-at` as epoch ms: the worker waits for it on its own clock before any load; null: at once. */
  startAtMs: number | null;
  /** Where this worker renews refused tokens: the token command, the fixtures file (each worker renews its own). */
  credentials: CredentialSources;
}

/** `hurry`: a stop signal reached the parent; the drain ends soon (engine/drain.ts SIGNAL_DRAIN_MS), even one under way. */
export type ParentMessage = { type: 'start'; job: WorkerJob } | { type: 'stop' } | { type: 'hurry' };

export type WorkerMessage =
  | { type: 'interval'; index: number; startSec: number; endSec: number; metrics: EncodedMetrics }
  /**
   * `counters`: the worker's own run totals, so the parent can prove its live merge lost nothing.
   * `loadEndMs`, `closedIndex`: when its load stopped, on its own run clock, and the last
   * interval it closed before (run-driver.ts DriverResult).
   */
  | { type: 'done'; rssBytes: number; durationMs: number; loadEndMs: number; closedIndex: number; counters: Record<string, number> }
  | { type: 'failed'; message: string };

/**
 * Main loop → request thread (request-thread-main.ts). `zeroEpochMs`: the run clock's zero
 * (performance.timeOrigin + performance.now() on the main loop), which both loops share.
 * `stop` and `hurry` (as ParentMessage's) come only after `go`: a thread stopped before it is
 * terminated (request-thread.ts).
 */
export type ThreadControl = { type: 'go'; zeroEpochMs: number } | { type: 'stop' } | { type: 'hurry' };

/** Request thread → main loop: prepared, each interval, the end. */
export type RequestThreadMessage =
  | { type: 'ready' }
  | { type: 'interval'; index: number; startSec: number; endSec: number; metrics: EncodedMetrics }
  | { type: 'done'; durationMs: number }
  | { type: 'failed'; message: string };
