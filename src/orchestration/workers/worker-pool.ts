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
  /** Of each worker that died, by index: the end of its last interval merged (ms of the run), 0 when none was. */
  reportedUntilMs: Record<number, number>;
}

/** The compiled worker entry: from dist/ even when this module runs from src/ (tests). */
function workerScript(): string {
  return compiledSibling(import.meta.url, 'driver-worker-main.js');
}

export async function runWorkerPool(
  jobs: WorkerJob[],
  policy: 'fail' | 'continue',
  stop: AbortController,
  sink: (interval: MetricSet, startSec: number, endSec: number) => void,
  /** A stop signal: every worker's drain ends soon (engine/drain.ts SIGNAL_DRAIN_MS). */
  hurry?: AbortSignal,
): Promise<PoolResult> {
  const result: PoolResult = { workers: [], rssBytes: 0, durationMs: 0, warnings: [], failedByPolicy: false, reportedUntilMs: {} };
  const merger = new IntervalMerger(jobs.length, sink);
  const children: ChildProcess[] = [];
  const onStop = (): void => {
    for (const child of children) if (child.connected) child.send({ type: 'stop' } satisfies ParentMessage);
  };
  stop.signal.addEventListener('abort', onStop, { once: true });
  const onHurry = (): void => {
    for (const child of children) if (child.connected) child.send({ type: 'hurry' } satisfies ParentMessage);
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
        } else result.warnings.push(redact(`worker ${job.workerIndex} failed: ${message.message}`));
      });
      child.on('exit', (code, signal) => {
        merger.retire(job.workerIndex);
        if (!done) {
          result.reportedUntilMs[job.workerIndex] = lastEndSec * 1_000;
          const why = signal ? `signal ${signal}` : `exit code ${code}`;
          const last = stderrTail.trim().split('\n').pop() ?? '';
          result.warnings.push(redact(`worker ${job.workerIndex} (${job.fixtures.participants.length} participants) died: ${why}${last ? `: ${last}` : ''}`));
          if (policy === 'fail') {
            result.failedByPolicy = true;
            stop.abort();
          }
        }
        resolve();
      });
      child.send({ type: 'start', job } satisfies ParentMessage);
    });

  await Promise.all(jobs.map(runOne));
  result.workers.sort((a, b) => a.index - b.index);
  stop.signal.removeEventListener('abort', onStop);
  hurry?.removeEventListener('abort', onHurry);
  merger.drain();
  return result;
}
