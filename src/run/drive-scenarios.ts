/**
 * Runs every scenario of a run in this process against a resolved target, counting into a
 * Recorder whose intervals go to `sink`. Shared by a single-process run and by each worker.
 */
import { setMaxListeners } from 'node:events';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Agent } from 'undici';
import type { Profile } from '../profile/profile-types.js';
import { Recorder, type IntervalSink } from './recorder.js';
import type { RunFixtures, ScenarioContext } from './scenario.js';
import { scenariosFor } from './scenarios.js';

/** Most sockets the request Agent opens per origin: streams need the file descriptors. */
export const REQUEST_CONNECTIONS = 512;

export interface DriveOptions {
  profile: Profile;
  targetUrl: string;
  fixtures: RunFixtures;
  expectKeepAliveMs: number;
  keepAliveToleranceMs: number;
  /** Aborted by the caller to stop early (signals, a parent's stop). */
  stop: AbortController;
  sink: IntervalSink;
}

export interface DriveResult {
  durationMs: number;
  rssBytes: number;
}

export async function driveScenarios(options: DriveOptions): Promise<DriveResult> {
  const { profile, stop } = options;
  // Every in-flight request of every scenario listens on this one signal.
  setMaxListeners(0, stop.signal);
  // Requests (messages, uploads, tags) share one Agent; streams have a Client each.
  const dispatcher = new Agent({ pipelining: 1, connections: REQUEST_CONNECTIONS, keepAliveTimeout: 10_000, connect: { timeout: 10_000 } });
  const recorder = new Recorder(1_000, options.sink);
  const runStartMs = performance.now();
  const ctx: ScenarioContext = {
    apiBase: `${options.targetUrl}/api/v1`,
    fixtures: options.fixtures,
    profile,
    metrics: recorder.interval,
    dispatcher,
    runStartMs,
    endMs: runStartMs + profile.durationMs,
    expectKeepAliveMs: options.expectKeepAliveMs,
    keepAliveToleranceMs: options.keepAliveToleranceMs,
    signal: stop.signal,
  };
  recorder.start();
  const endTimer = setTimeout(() => stop.abort(), profile.durationMs);
  try {
    const runTag = randomBytes(4).toString('hex');
    await Promise.all(scenariosFor(profile, runTag).map((scenario) => scenario.run(ctx)));
  } finally {
    clearTimeout(endTimer);
    recorder.stop();
    await dispatcher.destroy().catch(() => undefined);
  }
  return { durationMs: performance.now() - runStartMs, rssBytes: recorder.lastRssBytes };
}
