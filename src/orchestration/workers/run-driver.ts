/**
 * One driver process's run (the single process of a run, or one `--workers` process): its
 * scenarios on its main loop and, where streams run beside requests, the requests on a thread
 * of their own (drivers/scenarios.ts wantsRequestThread; docs/design.md §6). The two loops'
 * intervals are merged index by index, as a parent merges its workers', before they reach `sink`.
 */
import { scenariosFor, wantsRequestThread } from '../../drivers/scenarios.js';
import { prepareScenarios, runScenarios } from '../../engine/run-scenarios.js';
import type { IntervalSink } from '../../metrics/recorder.js';
import { redact } from '../../util/redact.js';
import { IntervalMerger } from './interval-merger.js';
import type { WorkerJob } from './messages.js';
import { RequestThread } from './request-thread.js';

export interface DriverRun {
  job: WorkerJob;
  stop: AbortController;
  /** Aborted on a stop signal, even after `stop`: the drain ends soon (engine/drain.ts SIGNAL_DRAIN_MS). */
  hurry?: AbortSignal;
  sink: IntervalSink;
  /** Awaited once every loop has prepared, right before the load starts (a --start-at wait). */
  beforeLoad?: () => Promise<unknown>;
}

export interface DriverResult {
  durationMs: number;
  /**
   * When the load stopped, in ms of the run clock: the plan's end, or the stop (a signal, a
   * parent's stop, abortOnFail). What follows it is the drain, which load.achieved does not
   * judge (docs/design.md §5.4).
   */
  loadEndMs: number;
  /**
   * The index of the last interval the main loop closed before its load stopped (-1: none):
   * the intervals after it hold the drain (docs/design.md §5.4, a stopped run).
   */
  closedIndex: number;
  rssBytes: number;
  /** The request thread died or failed: the run's request figures are incomplete. */
  failure: string | null;
}

const MAIN_LOOP = 0;
const REQUEST_THREAD = 1;

/**
 * The run clock's ms at which `stop` was aborted, from the loop's own duration (its clock's
 * zero to the return of runScenarios) less the time since the stop: the loop's zero is its own.
 */
function loadEndOf(durationMs: number, stoppedAtMs: number, returnedAtMs: number): number {
  return Math.max(0, Math.min(durationMs, durationMs - (returnedAtMs - stoppedAtMs)));
}

export async function runDriver({ job, stop, hurry, sink, beforeLoad }: DriverRun): Promise<DriverResult> {
  // Every stop of the load aborts `stop` (runScenarios does at the plan's end): its instant ends the judged load.
  let stoppedAtMs = Number.POSITIVE_INFINITY;
  const noteStop = (): void => {
    stoppedAtMs = Math.min(stoppedAtMs, performance.now());
  };
  if (stop.signal.aborted) noteStop();
  else stop.signal.addEventListener('abort', noteStop, { once: true });
  let closedIndex = -1;
  /** The main loop's sink, noting the intervals it closes before the stop (the streams are its own). */
  const noting =
    (next: IntervalSink): IntervalSink =>
    (interval, startSec, endSec, index) => {
      if (!stop.signal.aborted) closedIndex = index;
      next(interval, startSec, endSec, index);
    };
  if (!wantsRequestThread(job.profile)) {
    const scenarios = scenariosFor(job.profile);
    await prepareScenarios(scenarios, job.profile);
    await beforeLoad?.();
    // Stopped before the load began (a signal during a --start-at wait): nothing to run.
    if (stop.signal.aborted) return { durationMs: 0, loadEndMs: 0, closedIndex: -1, rssBytes: 0, failure: null };
    try {
      const result = await runScenarios({ ...job, scenarios, stop, hurry, sink: noting(sink) });
      return { ...result, loadEndMs: loadEndOf(result.durationMs, stoppedAtMs, performance.now()), closedIndex, failure: null };
    } finally {
      stop.signal.removeEventListener('abort', noteStop);
    }
  }

  // The streams are the main loop's: its interval edges are the merged interval's.
  const merger = new IntervalMerger(2, sink, [1, 0]);
  const thread = new RequestThread(job, (index, startSec, endSec, metrics) => merger.add(REQUEST_THREAD, index, startSec, endSec, metrics));
  const stopThread = (): void => thread.stop();
  const hurryThread = (): void => thread.hurry();
  // A run stopped already (a signal during the reachability check) stops its thread at once.
  if (stop.signal.aborted) stopThread();
  else stop.signal.addEventListener('abort', stopThread, { once: true });
  hurry?.addEventListener('abort', hurryThread, { once: true });
  try {
    const scenarios = scenariosFor(job.profile, undefined, 'streams');
    // Both settle, whatever happens: a thread stopped while it prepares ends without `ready`.
    const prepared = await Promise.allSettled([prepareScenarios(scenarios, job.profile), thread.ready]);
    if (!stop.signal.aborted) {
      for (const loop of prepared) if (loop.status === 'rejected') throw loop.reason;
      await beforeLoad?.();
    }
    if (stop.signal.aborted) {
      await thread.ended;
      return { durationMs: 0, loadEndMs: 0, closedIndex: -1, rssBytes: 0, failure: null };
    }
    // One clock for both loops: their intervals close together and merge by index.
    const zeroMs = performance.now();
    thread.go(performance.timeOrigin + zeroMs);
    const main = await runScenarios({
      ...job,
      scenarios,
      stop,
      hurry,
      zeroMs,
      sink: noting((interval, startSec, endSec, index) => merger.addSet(MAIN_LOOP, index, startSec, endSec, interval)),
    });
    const loadEndMs = loadEndOf(main.durationMs, stoppedAtMs, performance.now());
    merger.retire(MAIN_LOOP);
    const end = await thread.ended;
    merger.retire(REQUEST_THREAD);
    merger.drain();
    return {
      durationMs: Math.max(main.durationMs, end.durationMs),
      loadEndMs,
      closedIndex,
      rssBytes: main.rssBytes,
      failure: end.failure === null ? null : redact(`the request thread failed: ${end.failure}`),
    };
  } catch (error) {
    await thread.terminate();
    throw error;
  } finally {
    stop.signal.removeEventListener('abort', noteStop);
    stop.signal.removeEventListener('abort', stopThread);
    hurry?.removeEventListener('abort', hurryThread);
  }
}
