/**
 * Merges the same interval from every live worker before it reaches the collector, so the
 * parent's time series and hlog describe the whole run interval by interval. Intervals are
 * released in order, as soon as every live worker has reported them; a worker that dies no
 * longer holds the others back.
 */
import type { EncodedMetrics } from '../../contract/encoded-metrics.js';
import { MetricSet } from '../../metrics/metric-set.js';

interface Bucket {
  set: MetricSet;
  reported: Set<number>;
  startSec: number;
  endSec: number;
}

export type Release = (interval: MetricSet, startSec: number, endSec: number) => void;

export class IntervalMerger {
  private readonly buckets = new Map<number, Bucket>();
  private readonly alive: Set<number>;
  private next = 0;

  constructor(
    workers: number,
    private readonly release: Release,
  ) {
    this.alive = new Set(Array.from({ length: workers }, (_, i) => i));
  }

  add(worker: number, index: number, startSec: number, endSec: number, metrics: EncodedMetrics): void {
    // Workers run side by side: their gauges (open streams, RSS) add up within an interval.
    this.bucket(index, startSec, endSec).set.addEncoded(metrics, true);
    this.reported(worker, index, startSec, endSec);
  }

  /**
   * Adds a set of this thread's own (not encoded; it is read at once, never kept). Its gauges
   * take the max with the bucket's: a request thread beside a main loop has none of the
   * main loop's gauges (streams open, RSS), only time extents.
   */
  addSet(worker: number, index: number, startSec: number, endSec: number, metrics: MetricSet): void {
    this.bucket(index, startSec, endSec).set.add(metrics);
    this.reported(worker, index, startSec, endSec);
  }

  private bucket(index: number, startSec: number, endSec: number): Bucket {
    let bucket = this.buckets.get(index);
    if (!bucket) {
      bucket = { set: new MetricSet(), reported: new Set(), startSec, endSec };
      this.buckets.set(index, bucket);
    }
    return bucket;
  }

  private reported(worker: number, index: number, startSec: number, endSec: number): void {
    const bucket = this.buckets.get(index)!;
    bucket.reported.add(worker);
    bucket.startSec = Math.min(bucket.startSec, startSec);
    bucket.endSec = Math.max(bucket.endSec, endSec);
    this.flush(false);
  }

  /** A worker finished or died: stop waiting for it. */
  retire(worker: number): void {
    this.alive.delete(worker);
    this.flush(false);
  }

  /** Releases every remaining interval in order (end of run). */
  drain(): void {
    this.flush(true);
  }

  private flush(all: boolean): void {
    for (;;) {
      const bucket = this.buckets.get(this.next);
      if (!bucket) {
        // A gap (no worker reported this index): skip it only when draining.
        if (!all || this.buckets.size === 0) return;
        this.next++;
        continue;
      }
      const complete = [...this.alive].every((w) => bucket.reported.has(w));
      if (!all && !complete) return;
      this.buckets.delete(this.next++);
      this.release(bucket.set, bucket.startSec, bucket.endSec);
    }
  }
}
