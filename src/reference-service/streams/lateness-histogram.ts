/**
 * KEEP_ALIVE lateness (actual write time minus due time) in 0.1 ms buckets up to 1 s, so the
 * target can report its own timer accuracy at 19,000 streams without a dependency or any
 * per-sample allocation.
 */
const RESOLUTION_PER_MS = 10;
const BUCKETS = 10_000;

/** Lateness summary in milliseconds (bucket precision: 0.1 ms; the top bucket holds >= 1 s). */
export interface LatenessSummary {
  count: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
}

/** The non-empty buckets of a histogram, so workers can send theirs to the primary to be added. */
export interface SparseLateness {
  /** [bucket index, count] pairs. */
  buckets: Array<[number, number]>;
  maxMs: number;
}

/** Fixed-bucket histogram of KEEP_ALIVE lateness. */
export class LatenessHistogram {
  private readonly counts = new Uint32Array(BUCKETS);
  private total = 0;
  private maxMs = 0;

  record(lateMs: number): void {
    const late = lateMs > 0 ? lateMs : 0;
    const index = Math.min(BUCKETS - 1, Math.floor(late * RESOLUTION_PER_MS));
    this.counts[index] = (this.counts[index] ?? 0) + 1;
    this.total += 1;
    if (late > this.maxMs) this.maxMs = late;
  }

  /** Starts a new window (e.g. after a benchmark's ramp-up). */
  reset(): void {
    this.counts.fill(0);
    this.total = 0;
    this.maxMs = 0;
  }

  /** The non-empty buckets (a few dozen in practice: lateness clusters near 0). */
  toSparse(): SparseLateness {
    const buckets: Array<[number, number]> = [];
    for (let i = 0; i < BUCKETS; i += 1) if (this.counts[i]) buckets.push([i, this.counts[i] as number]);
    return { buckets, maxMs: this.maxMs };
  }

  /** Adds another histogram's buckets (exact: both use the same buckets). */
  addSparse(other: SparseLateness): void {
    for (const [index, count] of other.buckets) {
      if (index < 0 || index >= BUCKETS) continue;
      this.counts[index] = (this.counts[index] ?? 0) + count;
      this.total += count;
    }
    if (other.maxMs > this.maxMs) this.maxMs = other.maxMs;
  }

  summary(): LatenessSummary {
    return { count: this.total, p50: this.percentile(0.5), p99: this.percentile(0.99), p999: this.percentile(0.999), max: +this.maxMs.toFixed(3) };
  }

  /** Upper edge of the bucket holding the q-quantile (0 when empty). */
  private percentile(q: number): number {
    if (this.total === 0) return 0;
    const rank = Math.ceil(q * this.total);
    let seen = 0;
    for (let i = 0; i < BUCKETS; i += 1) {
      seen += this.counts[i] ?? 0;
      if (seen >= rank) return (i + 1) / RESOLUTION_PER_MS;
    }
    return BUCKETS / RESOLUTION_PER_MS;
  }
}
