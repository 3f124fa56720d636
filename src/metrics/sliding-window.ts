/**
 * The sum of the intervals of the last `lengthSec` seconds, kept up to date as intervals
 * arrive: each interval is added to a running MetricSet and remembered encoded (a few
 * hundred bytes), and subtracted again when it leaves the window, so memory and work per
 * interval stay flat however long the window (a [5m] window of 1 s intervals holds 300
 * small encodings, not 300 sets of histograms).
 */
import type { EncodedMetrics } from '../contract/encoded-metrics.js';
import { MetricSet } from './metric-set.js';

/** Interval edges jitter by a few ms; a window this much short of its length counts as full. */
const EDGE_SLACK_SEC = 0.05;

interface WindowEntry {
  startSec: number;
  endSec: number;
  encoded: EncodedMetrics;
}

export class SlidingWindow {
  /** The intervals inside the window, summed. Read it; do not change it. */
  readonly sum = new MetricSet();
  private readonly entries: WindowEntry[] = [];

  constructor(readonly lengthSec: number) {}

  /**
   * Adds the interval `[startSec, endSec]` (`encoded` is `interval.encode()`, made once for
   * every window) and drops the intervals that left the window.
   */
  push(interval: MetricSet, encoded: EncodedMetrics, startSec: number, endSec: number): void {
    this.entries.push({ startSec, endSec, encoded });
    this.sum.add(interval);
    let evicted = false;
    while (this.entries.length > 1 && endSec - (this.entries[1] as WindowEntry).startSec >= this.lengthSec - EDGE_SLACK_SEC) {
      const leaving = this.entries.shift() as WindowEntry;
      this.sum.subtract(MetricSet.decode(leaving.encoded));
      evicted = true;
    }
    if (evicted) for (const entry of this.entries) for (const [name, value] of Object.entries(entry.encoded.peaks)) this.sum.peak(name, value);
  }

  /** Whether the intervals held span the whole window length. */
  get full(): boolean {
    return this.entries.length > 0 && this.toSec - this.fromSec >= this.lengthSec - EDGE_SLACK_SEC;
  }

  get empty(): boolean {
    return this.entries.length === 0;
  }

  /** Start of the oldest interval held (seconds since the run start). */
  get fromSec(): number {
    return this.entries[0]?.startSec ?? 0;
  }

  /** End of the newest interval held. */
  get toSec(): number {
    return this.entries[this.entries.length - 1]?.endSec ?? 0;
  }
}
