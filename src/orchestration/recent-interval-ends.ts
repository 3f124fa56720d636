/**
 * The ends of the newest merged intervals, by index: where a stopped run's last interval before
 * its stop ended (docs/design.md §5.4, a stopped run). That interval is one of the newest merged
 * (a process's last one before its stop is at most its drain and its end grace behind), so only
 * the newest are kept, and a soak of any length holds the same few.
 */
export const INTERVAL_ENDS_KEPT = 600;

export class RecentIntervalEnds {
  /** End (s of the run) by index, in the order merged: ascending. */
  private readonly endSecByIndex = new Map<number, number>();

  note(index: number, endSec: number): void {
    this.endSecByIndex.set(index, endSec);
    if (this.endSecByIndex.size > INTERVAL_ENDS_KEPT) this.endSecByIndex.delete(this.endSecByIndex.keys().next().value as number);
  }

  /** The end (ms of the run) of interval `index`, or of the last one kept before it (an index every process skipped); 0 for none. */
  endMsOf(index: number | null): number {
    let endSec = 0;
    let at = -1;
    for (const [i, end] of this.endSecByIndex) {
      if (index !== null && i <= index && i > at) {
        at = i;
        endSec = end;
      }
    }
    return endSec * 1_000;
  }

  get size(): number {
    return this.endSecByIndex.size;
  }
}
