/**
 * The main loop's handle on its request thread (request-thread-main.ts): starts the thread
 * before the run's clock so its modules load and its scenarios prepare in advance, lets it go
 * when the load starts, passes its intervals on, and stops it with the run.
 */
import { Worker } from 'node:worker_threads';
import type { EncodedMetrics } from '../../contract/encoded-metrics.js';
import { compiledSibling } from '../../util/compiled-sibling.js';
import type { RequestThreadMessage, ThreadControl, WorkerJob } from './messages.js';

export type ThreadIntervalSink = (index: number, startSec: number, endSec: number, metrics: EncodedMetrics) => void;

export interface RequestThreadEnd {
  durationMs: number;
  /** Why the thread ended without finishing its run; null when it finished. */
  failure: string | null;
}

export class RequestThread {
  private readonly worker: Worker;
  private started = false;
  /** Settles when the thread has prepared its scenarios; rejects if it cannot, or ends (stopped, died) before it has. */
  readonly ready: Promise<void>;
  /** Settles when the thread has ended, finished or not; never rejects. */
  readonly ended: Promise<RequestThreadEnd>;

  constructor(job: WorkerJob, onInterval: ThreadIntervalSink) {
    this.worker = new Worker(compiledSibling(import.meta.url, 'request-thread-main.js'), { workerData: job });
    let end: RequestThreadEnd = { durationMs: 0, failure: 'the request thread exited before it finished' };
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (message: RequestThreadMessage) => {
        if (message.type === 'ready') resolve();
        else if (message.type === 'interval') onInterval(message.index, message.startSec, message.endSec, message.metrics);
        else if (message.type === 'done') end = { durationMs: message.durationMs, failure: null };
        else {
          end = { durationMs: 0, failure: message.message };
          reject(new Error(`the request thread could not start: ${message.message}`));
        }
      });
      this.worker.on('error', (error) => {
        end = { durationMs: 0, failure: error.message };
        reject(error);
      });
      // Without this, a thread that ends before `ready` (stopped while it prepared) left
      // `ready` pending forever, and with it the run (docs/design.md §2.8).
      this.worker.once('exit', () => reject(new Error('the request thread ended before it was ready')));
    });
    // A thread that fails before `ready` is reported by `ready`; `ended` only says it ended.
    this.ready.catch(() => undefined);
    this.ended = new Promise((resolve) => this.worker.once('exit', () => resolve(end)));
  }

  /** Starts the thread's load on the run clock whose zero is `zeroEpochMs` (see ThreadControl). */
  go(zeroEpochMs: number): void {
    this.started = true;
    this.post({ type: 'go', zeroEpochMs });
  }

  /** Stops the run; a thread that has not started has nothing to send and is ended at once. */
  stop(): void {
    if (this.started) this.post({ type: 'stop' });
    else void this.terminate();
  }

  /** A stop signal: the thread's drain ends soon (engine/drain.ts SIGNAL_DRAIN_MS). */
  hurry(): void {
    if (this.started) this.post({ type: 'hurry' });
    else void this.terminate();
  }

  /** Ends the thread at once (the run failed around it). */
  async terminate(): Promise<void> {
    await this.worker.terminate();
  }

  private post(message: ThreadControl): void {
    this.worker.postMessage(message);
  }
}
