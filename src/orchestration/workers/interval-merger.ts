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
  /** The union of the parts' intervals: the edges when no part has weight. */
  minStartSec: number;
  maxEndSec: number;
  /** The parts' edges, summed by their weight: the merged interval is their mean. */
  weight: number;
  weightedStartSec: number;
  weightedEndSec: number;
}

export type Release = (interval: MetricSet, startSec: number, endSec: number, index: number) => void;

export class IntervalMerger {
  private readonly buckets = new Map<number, Bucket>();
  /** The highest index each live worker has reported (-1 before its first). */
  private readonly latest = new Map<number, number>();
  private next = 0;

  /**
   * `edgeWeights`: how much each part's interval edges count in the merged interval's (1 each
   * by default). A merged interval is the weighted mean of its parts' edges, not their union:
   * each part's intervals follow one another edge to edge, so the means do too, and what the
   * parts counted (the stream-seconds above all) is set against about the time each counted
   * it over. A union is as long as the latest part's tick makes it: one loop's late tick
   * (a loaded machine) thinned the interval's mean streams, and neighbours overlapped.
   * A part with weight 0 (a request thread, which holds no stream) leaves the edges to the others.
   */
  constructor(
    workers: number,
    private readonly release: Release,
    private readonly edgeWeights: readonly number[] = [],
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
      bucket = { set: new MetricSet(), minStartSec: startSec, maxEndSec: endSec, weight: 0, weightedStartSec: 0, weightedEndSec: 0 };
      this.buckets.set(at, bucket);
    }
    fold(bucket.set);
    bucket.minStartSec = Math.min(bucket.minStartSec, startSec);
    bucket.maxEndSec = Math.max(bucket.maxEndSec, endSec);
    const weight = this.edgeWeights[worker] ?? 1;
    bucket.weight += weight;
    bucket.weightedStartSec += weight * startSec;
    bucket.weightedEndSec += weight * endSec;
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
      const { weight } = bucket;
      if (weight > 0) this.release(bucket.set, bucket.weightedStartSec / weight, bucket.weightedEndSec / weight, index);
      else this.release(bucket.set, bucket.minStartSec, bucket.maxEndSec, index);
    }
  }
}
