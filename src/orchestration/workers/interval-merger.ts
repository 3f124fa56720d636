/**
 * Merges the same interval from every live worker before it reaches the collector, so the
 * parent's time series and hlog describe the whole run interval by interval. Intervals are
 * released in order, as soon as every live worker has reported them or gone past them (a
 * stalled loop skips the indices its stall swallowed: recorder.ts); a worker that dies no
 * longer holds the others back.
 */
import type { EncodedMetrics } from '../../contract/encoded-metrics.js';
import { MetricSet } from '../../metrics/metric-set.js';

interface Bucket {
  set: MetricSet;
  startSec: number;
  endSec: number;
}

export type Release = (interval: MetricSet, startSec: number, endSec: number, index: number) => void;

export class IntervalMerger {
  private readonly buckets = new Map<number, Bucket>();
  /** The highest index each live worker has reported (-1 before its first). */
  private readonly latest = new Map<number, number>();
  private next = 0;

  constructor(
    workers: number,
    private readonly release: Release,
  ) {
    for (let worker = 0; worker < workers; worker++) this.latest.set(worker, -1);
  }

  add(worker: number, index: number, startSec: number, endSec: number, metrics: EncodedMetrics): void {
    // Workers run side by side: their gauges (open streams, RSS) add up within an interval.
    this.merge(worker, index, startSec, endSec, (set) => set.addEncoded(metrics, true));
  }

  /**
   * Adds a set of this thread's own (not encoded; it is read at once, never kept). Its gauges
   * take the max with the bucket's: a request thread beside a main loop has none of the
   * main loop's gauges (streams open, RSS), only time extents.
   */
  addSet(worker: number, index: number, startSec: number, endSec: number, metrics: MetricSet): void {
    this.merge(worker, index, startSec, endSec, (set) => set.add(metrics));
  }

  /**
   * Folds one worker's interval into its bucket and releases what is settled. An interval that
   * comes after its index was released (a worker that retired and still reported) goes into
   * the first one not yet released: its counts join the run late rather than being lost.
   */
  private merge(worker: number, index: number, startSec: number, endSec: number, fold: (set: MetricSet) => void): void {
    const at = Math.max(index, this.next);
    let bucket = this.buckets.get(at);
    if (!bucket) {
      bucket = { set: new MetricSet(), startSec, endSec };
      this.buckets.set(at, bucket);
    }
    fold(bucket.set);
    bucket.startSec = Math.min(bucket.startSec, startSec);
    bucket.endSec = Math.max(bucket.endSec, endSec);
    const latest = this.latest.get(worker);
    if (latest !== undefined) this.latest.set(worker, Math.max(latest, at));
    this.flush(false);
  }

  /** A worker finished or died: stop waiting for it. */
  retire(worker: number): void {
    this.latest.delete(worker);
    this.flush(false);
  }

  /** Releases every remaining interval in order (end of run). */
  drain(): void {
    this.flush(true);
  }

  /** Every live worker has reported `index` or gone past it: nothing more can come for it. */
  private settled(index: number): boolean {
    for (const latest of this.latest.values()) if (latest < index) return false;
    return true;
  }

  private flush(all: boolean): void {
    while (this.buckets.size > 0) {
      const index = this.next;
      if (!all && !this.settled(index)) return;
      this.next++;
      // No bucket: every worker skipped this index (a stall swallowed it everywhere).
      const bucket = this.buckets.get(index);
      if (!bucket) continue;
      this.buckets.delete(index);
      this.release(bucket.set, bucket.startSec, bucket.endSec, index);
    }
  }
}
