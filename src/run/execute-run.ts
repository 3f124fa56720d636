/**
 * One run, end to end: target → scenarios side by side → recorder → report folder.
 * Returns the exit code of DESIGN.md section 2; never calls process.exit.
 */
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { Agent } from 'undici';
import { buildReport } from '../report/build-report.js';
import type { Report } from '../report/report-types.js';
import { writeReportFiles } from '../report/write-report.js';
import { ExitCode } from '../util/errors.js';
import { Progress } from './progress.js';
import { Recorder } from './recorder.js';
import type { RunConfig } from './run-config.js';
import { preflight, resolveTarget } from './run-target.js';
import { scenariosFor, shardFixtures } from './scenarios.js';
import type { ScenarioContext } from './scenario.js';
import { onStopSignal } from './signals.js';

/** Most sockets the request Agent opens per origin. */
export const REQUEST_CONNECTIONS = 512;

export interface RunOutcome {
  exitCode: number;
  report: Report;
  outDir: string;
}

/** `reports/<profile>-<UTC stamp>` unless --out names the folder. */
export function defaultRunId(profileName: string, now: Date): string {
  return `${profileName}-${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}`;
}

export async function executeRun(config: RunConfig, stderr: NodeJS.WriteStream = process.stderr): Promise<RunOutcome> {
  const { profile } = config;
  const startedAt = new Date();
  const runId = defaultRunId(profile.name, startedAt);
  const outDir = config.outDir ?? join('reports', runId);
  await mkdir(outDir, { recursive: true });

  const target = await resolveTarget(config);
  const stop = new AbortController();
  // Every in-flight request of every scenario listens on this one signal.
  setMaxListeners(0, stop.signal);
  let interrupted = false;
  const removeSignalHandler = onStopSignal(() => {
    interrupted = true;
    stop.abort();
  });
  // Requests (messages, uploads, tags) share one Agent; streams have a Client each. The cap
  // keeps request sockets bounded so streams keep the file descriptors (20,000 per process here).
  const dispatcher = new Agent({ pipelining: 1, connections: REQUEST_CONNECTIONS, keepAliveTimeout: 10_000, connect: { timeout: 10_000 } });
  try {
    await preflight(target.url);
    const fixtures = shardFixtures(target.fixtures, profile.chatStreams.participants, config.shard);
    const progress = new Progress({ quiet: config.quiet, stream: stderr, targetStreams: Math.min(profile.chatStreams.participants, fixtures.participants.length), durationMs: profile.durationMs });
    progress.say(`coachbench ${profile.name}: ${target.embedded ? `embedded target ${target.url}` : `target ${target.url}`}, ${fixtures.participants.length} participants, ${Math.round(profile.durationMs / 1_000)} s → ${outDir}`);
    const recorder = new Recorder({ intervalMs: 1_000, hlogPath: join(outDir, 'histograms.hlog'), startEpochMs: startedAt.getTime(), onInterval: (point, total) => progress.update(point, total) });
    const runStartMs = performance.now();
    const ctx: ScenarioContext = {
      apiBase: `${target.url}/api/v1`,
      fixtures,
      profile,
      metrics: recorder.interval,
      dispatcher,
      runStartMs,
      endMs: runStartMs + profile.durationMs,
      expectKeepAliveMs: target.expectKeepAliveMs,
      keepAliveToleranceMs: target.keepAliveToleranceMs,
      signal: stop.signal,
    };
    recorder.start();
    const endTimer = setTimeout(() => stop.abort(), profile.durationMs);
    const runTag = randomBytes(4).toString('hex');
    await Promise.all(scenariosFor(profile, runTag).map((scenario) => scenario.run(ctx)));
    clearTimeout(endTimer);
    await recorder.stop();
    progress.done();
    const report = buildReport(recorder.total, {
      runId,
      startedAt,
      endedAt: new Date(),
      durationMs: performance.now() - runStartMs,
      interrupted,
      target: { url: target.url, embedded: target.embedded !== null, ...(target.embedded ? { faults: profile.target.faults } : {}) },
      profile,
      expectKeepAliveMs: target.expectKeepAliveMs,
      keepAliveToleranceMs: target.keepAliveToleranceMs,
      shard: config.shard,
      processes: 1,
      rssBytes: recorder.lastRssBytes,
      timeseries: recorder.timeseries.toArray(),
      warnings: [],
      thresholds: config.thresholds,
    });
    await writeReportFiles(outDir, report);
    const exitCode = interrupted ? ExitCode.interrupted : report.verdict === 'pass' ? ExitCode.ok : ExitCode.failed;
    return { exitCode, report, outDir };
  } finally {
    removeSignalHandler();
    await dispatcher.destroy().catch(() => undefined);
    await target.embedded?.close();
  }
}
