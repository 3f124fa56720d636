/**
 * A scenario is one workload of a run (chat streams, photo upload, tag link, probes).
 * All scenarios of a run share one context and run side by side; each counts into
 * `ctx.metrics`, the current interval's MetricSet, which the run rolls into its total.
 */
import type { Dispatcher } from 'undici';
import type { Fixtures } from '../contract/fixtures.js';
import type { KeepAliveExpectation } from '../contract/keep-alive.js';
import type { Profile } from '../contract/profile/profile.js';
import type { MetricSet } from '../metrics/metric-set.js';
import type { Credentials } from './auth/credentials.js';
import type { Transport } from './transport.js';

export interface RunFixtures extends Fixtures {
  apiKey: string;
}

export interface ScenarioContext {
  /** Target base URL including the /api/v1 prefix, without a trailing slash. */
  apiBase: string;
  /** This process's participants (a shard's share when sharded), with the API key resolved. */
  fixtures: RunFixtures;
  profile: Profile;
  /** The current interval's metrics; count here, never keep references to its histograms. */
  metrics: MetricSet;
  /** The request Agent of this process (messages, uploads, tags), capped at REQUEST_CONNECTIONS sockets; streams have their own Clients. */
  dispatcher: Dispatcher;
  /** performance.now() when the run started. */
  runStartMs: number;
  /**
   * Registers a listener told (with performance.now()) as each interval closes, before it is
   * handed on; absent where no recorder runs (a scenario under test alone).
   */
  onIntervalClose?: (listener: (nowMs: number) => void) => void;
  /** performance.now() when load must stop (the run's duration). */
  endMs: number;
  /** The KEEP_ALIVE cadence streams are held to, resolved once for the run. */
  keepAlive: KeepAliveExpectation;
  /** Aborted on SIGINT/SIGTERM or at endMs: no new work starts after it. */
  signal: AbortSignal;
  /**
   * Aborted DRAIN_GRACE_MS after `signal` (engine/drain.ts): what every request carries, so
   * the requests in flight at the stop may still be answered, and none is aborted at the stop
   * itself. An exchange cut by it was not answered in the run.
   */
  cut: AbortSignal;
  /**
   * Aborted SIGNAL_DRAIN_MS after a stop signal (never at the profile's end): drains that
   * would wait longer (a message delivery's window) end then (docs/design.md §2.8).
   */
  hurried?: AbortSignal;
  /** TLS, extra headers and proxy (transport.ts): the dispatcher has them; streams and the closed model apply them too. */
  transport: Transport;
  /** This process's index among the run's processes (shard × workers): its own random streams of `profile.seed` (arrival-pacer.ts). */
  arrivalStream: number;
  /** Renews refused bearer tokens (auth/credentials.ts); null when the run has no way to (the embedded target). */
  credentials: Credentials | null;
}

export interface Scenario {
  readonly name: string;
  /**
   * Work before the run's clock starts (loading a module only this profile needs): done
   * during a run, it would stall the loop that opens streams and times requests.
   */
  prepare?(profile: Profile): Promise<void>;
  /** Runs until `ctx.signal` aborts or the scenario's own schedule ends; must not throw. */
  run(ctx: ScenarioContext): Promise<void>;
}

/**
 * Runs a scenario's work so that `run` does not throw. Its requests never throw (a failure is
 * a count or a sample), so an error out of it is a driver bug: kept visible, as a sample of
 * `sampleName` in the interval it ended in, and not fatal to the run.
 */
export async function runNotFatal(ctx: Pick<ScenarioContext, 'metrics'>, sampleName: string, subject: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    ctx.metrics.sample(sampleName, `${subject} stopped by an internal error: ${(error as Error).message}`);
  }
}
