/**
 * Runs a run's share-jobs in N worker processes (`--workers N`), merges their interval
 * snapshots live, and reports on workers that die (which one, why) under the profile's
 * policy: `fail` stops the run and fails it, `continue` goes on with the others.
 */
import { type ChildProcess, fork } from 'node:child_process';
import type { MetricSet } from '../../metrics/metric-set.js';
import { compiledSibling } from '../../util/compiled-sibling.js';
import { redact } from '../../util/redact.js';
import { IntervalMerger } from './interval-merger.js';
import type { ParentMessage, WorkerJob, WorkerMessage } from './messages.js';

export interface WorkerSummary {
  index: number;
  participants: number;
  /** The worker's own counter totals (absent when it died before finishing). */
  counters: Record<string, number> | null;
}

export interface PoolResult {
  workers: WorkerSummary[];
  rssBytes: number;
  durationMs: number;
  warnings: string[];
  /** A worker died and the policy says the run fails. */
  failedByPolicy: boolean;
  /**
   * Workers killed because they had not ended WORKER_SIGNAL_GRACE_MS after a stop signal, by
   * index: the user stopped the run, so their loss is no failure of it (docs/design.md §7).
   */
  killedAfterSignal: number[];
  /** Of each worker that died, by index: the end of its last interval merged (ms of the run), 0 when none was. */
  reportedUntilMs: Record<number, number>;
  /**
   * When the first of the workers that ended stopped its load (ms of the run; null when none
   * that began its load ended): until then every one drove its share; after it, some were
   * draining or gone.
   */
  loadEndMs: number | null;
  /** Of the same workers, the least index of the last interval each closed before its stop (-1: none; null: no such worker). */
  closedIndex: number | null;
}

/**
 * How long a worker may still run after the run's planned end (or after a stop that is no
 * signal: a threshold's abortOnFail, a lost worker under `fail`) before it is killed as stuck:
 * its drain, its last summary and its exit take a few seconds at most (docs/design.md §7).
 */
export const WORKER_END_GRACE_MS = 30_000;

/** After a stop signal: how long a worker may take to end before it is killed, so the process ends in time (docs/design.md §2.8). */
export const WORKER_SIGNAL_GRACE_MS = 1_500;

/** The compiled worker entry: from dist/ even when this module runs from src/ (tests). */
function workerScript(): string {
  return compiledSibling(import.meta.url, 'driver-worker-main.js');
}

export async function runWorkerPool(
  jobs: WorkerJob[],
  policy: 'fail' | 'continue',
  stop: AbortController,
  sink: (interval: MetricSet, startSec: number, endSec: number, index: number) => void,
  /** A stop signal: every worker's drain ends soon (engine/drain.ts SIGNAL_DRAIN_MS). */
  hurry?: AbortSignal,
): Promise<PoolResult> {
  const result: PoolResult = {
    workers: [],
    rssBytes: 0,
    durationMs: 0,
    warnings: [],
    failedByPolicy: false,
    killedAfterSignal: [],
    reportedUntilMs: {},
    loadEndMs: null,
    closedIndex: null,
  };
  const merger = new IntervalMerger(jobs.length, sink);
  const children: ChildProcess[] = [];
  // A worker that does not end (its loop blocked, the process stopped) would hold the run, and
  // a stop signal, forever: past a bound it is killed, and reported as a worker that died.
  const killedBecause = new Map<ChildProcess, { why: string; afterSignal: boolean }>();
  let killTimer: NodeJS.Timeout | undefined;
  let killAtMs = Number.POSITIVE_INFINITY;
  const killStuckAt = (atMs: number, why: string, afterSignal = false): void => {
    if (atMs >= killAtMs) return;
    killAtMs = atMs;
    clearTimeout(killTimer);
    killTimer = setTimeout(
      () => {
        for (const child of children) {
          if (child.exitCode !== null || child.signalCode !== null) continue;
          killedBecause.set(child, { why, afterSignal });
          child.kill('SIGKILL');
        }
      },
      Math.max(0, atMs - Date.now()),
    );
  };
  const first = jobs[0];
  const plannedEndMs = (first?.startAtMs ?? Date.now()) + (first?.profile.durationMs ?? 0);
  killStuckAt(plannedEndMs + WORKER_END_GRACE_MS, `did not end within ${WORKER_END_GRACE_MS / 1_000} s of the run's planned end`);
  const onStop = (): void => {
    for (const child of children) if (child.connected) child.send({ type: 'stop' } satisfies ParentMessage);
    killStuckAt(Date.now() + WORKER_END_GRACE_MS, `did not end within ${WORKER_END_GRACE_MS / 1_000} s of the run's stop`);
  };
  stop.signal.addEventListener('abort', onStop, { once: true });
  const onHurry = (): void => {
    for (const child of children) if (child.connected) child.send({ type: 'hurry' } satisfies ParentMessage);
    killStuckAt(Date.now() + WORKER_SIGNAL_GRACE_MS, `did not end within ${WORKER_SIGNAL_GRACE_MS / 1_000} s of the stop signal`, true);
  };
  hurry?.addEventListener('abort', onHurry, { once: true });

  const runOne = (job: WorkerJob): Promise<void> =>
    new Promise((resolve) => {
      const child = fork(workerScript(), [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
      children.push(child);
      const summary: WorkerSummary = { index: job.workerIndex, participants: job.fixtures.participants.length, counters: null };
      result.workers.push(summary);
      let stderrTail = '';
      let done = false;
      let lastEndSec = 0;
      child.stderr?.on('data', (chunk: Buffer) => {
        stderrTail = (stderrTail + chunk.toString()).slice(-500);
      });
      child.on('message', (message: WorkerMessage) => {
        if (message.type === 'interval') {
          lastEndSec = Math.max(lastEndSec, message.endSec);
          merger.add(job.workerIndex, message.index, message.startSec, message.endSec, message.metrics);
        } else if (message.type === 'done') {
          done = true;
          summary.counters = message.counters;
          result.rssBytes += message.rssBytes;
          result.durationMs = Math.max(result.durationMs, message.durationMs);
          // A worker stopped before its load began drove nothing: the others' stops end the load.
          if (message.durationMs > 0) {
            result.loadEndMs = Math.min(result.loadEndMs ?? Number.POSITIVE_INFINITY, message.loadEndMs);
            result.closedIndex = Math.min(result.closedIndex ?? Number.POSITIVE_INFINITY, message.closedIndex);
          }
        } else result.warnings.push(redact(`worker ${job.workerIndex} failed: ${message.message}`));
      });
      child.on('exit', (code, signal) => {
        merger.retire(job.workerIndex);
        if (!done) {
          result.reportedUntilMs[job.workerIndex] = lastEndSec * 1_000;
          const why = signal ? `signal ${signal}` : `exit code ${code}`;
          const last = stderrTail.trim().split('\n').pop() ?? '';
          const killed = killedBecause.get(child);
          const participants = `worker ${job.workerIndex} (${job.fixtures.participants.length} participants)`;
          if (killed?.afterSignal) {
            // Stopped by the user, and too slow to end (a starved machine, or stuck): its loss
            // fails neither the target nor the checks; its missing share is left out of the plan.
            result.killedAfterSignal.push(job.workerIndex);
            result.warnings.push(
              redact(
                `${participants} ${killed.why} and was killed (too slow to end, or stuck); the run was interrupted, so this fails nothing, ` +
                  `but its share of the load after ${Math.round(lastEndSec * 10) / 10} s into the run (the end of its last interval merged) is missing${last ? `: ${last}` : ''}`,
              ),
            );
          } else {
            const what = killed === undefined ? `died: ${why}` : `${killed.why} and was killed (stuck: its event loop blocked, or the process stopped)`;
            result.warnings.push(redact(`${participants} ${what}${last ? `: ${last}` : ''}`));
            if (policy === 'fail') {
              result.failedByPolicy = true;
              stop.abort();
            }
          }
        }
        resolve();
      });
      child.send({ type: 'start', job } satisfies ParentMessage);
    });

  await Promise.all(jobs.map(runOne));
  clearTimeout(killTimer);
  result.workers.sort((a, b) => a.index - b.index);
  stop.signal.removeEventListener('abort', onStop);
  hurry?.removeEventListener('abort', onHurry);
  merger.drain();
  return result;
}
