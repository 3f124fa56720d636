/**
 * The engine's one entry point: runs scenarios side by side in this process against a
 * resolved target, counting into a Recorder whose closed intervals go to `sink`. A
 * single-process run, each driver worker, the tests and every benchmark call this.
 */
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import type { KeepAliveExpectation } from '../contract/keep-alive.js';
import type { Profile } from '../contract/profile/profile.js';
import type { MonitoredLoop } from '../metrics/generator-monitor.js';
import { connectionsName } from '../metrics/names.js';
import { type IntervalSink, Recorder } from '../metrics/recorder.js';
import { type CredentialSources, Credentials } from './auth/credentials.js';
import { cutAfterStop, DRAIN_GRACE_MS, hurriedAfter } from './drain.js';
import { createRequestAgent, REQUEST_CONNECTIONS } from './http-agent.js';
import type { RunFixtures, Scenario, ScenarioContext } from './scenario.js';
import { defaultTransport, type Transport } from './transport.js';

export interface RunScenariosOptions {
  scenarios: readonly Scenario[];
  profile: Profile;
  /** Target origin, e.g. `http://127.0.0.1:8080` (the API lives under `/api/v1`). */
  targetUrl: string;
  fixtures: RunFixtures;
  keepAlive: KeepAliveExpectation;
  /** Aborted by the caller to stop early (signals, a parent's stop); aborted here at the profile's end. */
  stop: AbortController;
  /** Aborted on a stop signal (SIGINT/SIGTERM), even during the drain: the drain ends soon after (docs/design.md §2.8). */
  hurry?: AbortSignal;
  sink: IntervalSink;
  /** Length of one measurement interval (1 s in a run; tests use shorter ones). */
  intervalMs?: number;
  /** The request dispatcher; by default a fresh request Agent, destroyed at the end. */
  dispatcher?: Dispatcher;
  /** TLS, headers and proxy of the run; plain defaults when absent (tests, the embedded target). */
  transport?: Transport;
  /** Where refused tokens are renewed from; absent: a 401 stands (the embedded target, tests). */
  credentials?: CredentialSources;
  /** Whose loop this is: a process's (default) or a request thread's (docs/design.md §6). */
  loop?: MonitoredLoop;
  /**
   * The run clock's zero on this thread's performance.now() clock, when loops share one (a
   * driver's main loop and its request thread); by default the moment the load starts here.
   */
  zeroMs?: number;
  /** This process's index among the run's processes, which picks its random streams (default 0). */
  arrivalStream?: number;
}

export interface RunScenariosResult {
  durationMs: number;
  rssBytes: number;
}

/**
 * Each scenario's work before the clock (Scenario.prepare). runScenarios does it too; a run
 * that waits for --start-at calls it first, so that the wait covers it and load starts on time.
 */
export async function prepareScenarios(scenarios: readonly Scenario[], profile: Profile): Promise<void> {
  await Promise.all(scenarios.map((scenario) => scenario.prepare?.(profile)));
}

export async function runScenarios(options: RunScenariosOptions): Promise<RunScenariosResult> {
  const { profile, stop } = options;
  // Every in-flight request of every scenario listens on this one signal.
  setMaxListeners(0, stop.signal);
  const transport = options.transport ?? defaultTransport();
  // Every connection the request Agent opens is counted by the protocol it speaks.
  const dispatcher =
    options.dispatcher ?? createRequestAgent(transport, REQUEST_CONNECTIONS, (protocol) => ctx.metrics.inc(connectionsName('requests', protocol)));
  await prepareScenarios(options.scenarios, profile);
  const runStartMs = options.zeroMs ?? performance.now();
  const hurried = hurriedAfter(options.hurry);
  const recorder = new Recorder(options.intervalMs ?? 1_000, options.sink, profile.generator.maxEventLoopDelayP99Ms, options.loop, runStartMs);
  const ctx: ScenarioContext = {
    apiBase: `${options.targetUrl}/api/v1`,
    fixtures: options.fixtures,
    profile,
    metrics: recorder.interval,
    dispatcher,
    runStartMs,
    onIntervalClose: (listener) => recorder.onClose(listener),
    endMs: runStartMs + profile.durationMs,
    keepAlive: options.keepAlive,
    signal: stop.signal,
    cut: cutAfterStop(stop.signal, DRAIN_GRACE_MS, hurried),
    hurried,
    transport,
    arrivalStream: options.arrivalStream ?? 0,
    credentials: null,
  };
  const sources = options.credentials;
  if (sources && (sources.tokenCommand !== null || sources.fixturesPath !== null)) {
    const credentials = new Credentials(options.fixtures, sources, () => ctx.metrics);
    credentials.watchFixtures();
    // A request waiting for a token at the end drains like any other request in flight.
    ctx.cut.addEventListener('abort', () => credentials.close(), { once: true });
    ctx.credentials = credentials;
  }
  recorder.start();
  const endTimer = setTimeout(() => stop.abort(), runStartMs + profile.durationMs - performance.now());
  try {
    await Promise.all(options.scenarios.map((scenario) => scenario.run(ctx)));
  } finally {
    clearTimeout(endTimer);
    recorder.stop();
    ctx.credentials?.close();
    if (!options.dispatcher) await dispatcher.destroy().catch(() => undefined);
  }
  return { durationMs: performance.now() - runStartMs, rssBytes: recorder.lastRssBytes };
}
