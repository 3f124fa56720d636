/**
 * One shared scheduler for every stream's KEEP_ALIVE, instead of a setInterval per stream.
 *
 * Entries are bucketed by their due millisecond; each bucket is an intrusive doubly linked
 * list (O(1) add and remove, no per-stream Set or timer) and a min-heap holds the due bucket
 * keys. A single setTimeout is armed for the earliest bucket. Each stream keeps its own phase
 * (its open time), so 19,000 streams fire spread over the interval, never in one burst, and
 * each entry follows an absolute schedule (due += gap) so lateness never accumulates.
 */
import { performance } from 'node:perf_hooks';
import { LatenessHistogram } from './lateness-histogram.js';
import { NumberHeap } from './number-heap.js';

/** What the wheel calls when an entry is due. */
export interface KeepAliveClient {
  onKeepAlive(): void;
}

/** A stream's place in the wheel. Create one per stream; the wheel owns the link fields. */
export class WheelEntry {
  dueMs = 0;
  key = -1;
  prev: WheelEntry | null = null;
  next: WheelEntry | null = null;
  constructor(
    readonly client: KeepAliveClient,
    readonly gapMs: number,
  ) {}
}

// A bucket may fire this much before its key: libuv timers can wake a fraction early.
const EARLY_SLACK_MS = 0.5;

/** The shared KEEP_ALIVE scheduler: one timer for every stream of the target. */
export class KeepAliveWheel {
  private readonly buckets = new Map<number, WheelEntry>();
  private readonly heap = new NumberHeap();
  private timer: NodeJS.Timeout | null = null;
  private armedKey = Infinity;
  private count = 0;
  /** How late each KEEP_ALIVE fired relative to its due time. */
  readonly lateness = new LatenessHistogram();

  /** Entries registered right now (one per live, non-stalled stream). */
  get size(): number {
    return this.count;
  }

  /** Registers `entry`; it fires first at `firstDueMs` (performance.now() time), then every gap. */
  add(entry: WheelEntry, firstDueMs: number): void {
    if (entry.key !== -1) return;
    entry.dueMs = firstDueMs;
    this.insert(entry);
    this.count += 1;
    if (entry.key < this.armedKey) this.arm();
  }

  remove(entry: WheelEntry): void {
    if (entry.key === -1) return;
    this.unlink(entry);
    this.count -= 1;
    if (this.count === 0) this.reset();
  }

  /** Drops every entry and the timer (close()). */
  reset(): void {
    this.buckets.clear();
    this.heap.clear();
    this.count = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.armedKey = Infinity;
  }

  private insert(entry: WheelEntry): void {
    const key = Math.ceil(entry.dueMs);
    const head = this.buckets.get(key);
    entry.key = key;
    entry.prev = null;
    entry.next = head ?? null;
    if (head) head.prev = entry;
    else this.heap.push(key);
    this.buckets.set(key, entry);
  }

  private unlink(entry: WheelEntry): void {
    if (entry.prev) entry.prev.next = entry.next;
    else if (entry.next) this.buckets.set(entry.key, entry.next);
    else this.buckets.delete(entry.key); // its heap key goes stale and is skipped later
    if (entry.next) entry.next.prev = entry.prev;
    entry.prev = null;
    entry.next = null;
    entry.key = -1;
  }

  private arm(): void {
    while (this.heap.size > 0 && !this.buckets.has(this.heap.peek() as number)) this.heap.pop();
    const key = this.heap.peek();
    if (key === undefined) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.armedKey = Infinity;
      return;
    }
    if (this.timer && key === this.armedKey) return;
    if (this.timer) clearTimeout(this.timer);
    this.armedKey = key;
    this.timer = setTimeout(this.tick, Math.max(1, Math.floor(key - performance.now())));
  }

  private readonly tick = (): void => {
    this.timer = null;
    this.armedKey = Infinity;
    const now = performance.now();
    for (;;) {
      const key = this.heap.peek();
      if (key === undefined || key > now + EARLY_SLACK_MS) break;
      this.heap.pop();
      // Take the bucket's head one at a time (rather than walking a detached list) so that a
      // callback closing any stream unlinks it through the normal path. Each entry is
      // re-inserted before its callback runs, into a later bucket.
      let entry = this.buckets.get(key);
      while (entry) {
        this.unlink(entry);
        this.lateness.record(performance.now() - entry.dueMs);
        entry.dueMs += entry.gapMs;
        // After a long event-loop stall, restart the phase instead of firing a burst.
        if (entry.dueMs <= now + EARLY_SLACK_MS) entry.dueMs = now + entry.gapMs;
        this.insert(entry);
        entry.client.onKeepAlive();
        entry = this.buckets.get(key);
      }
    }
    if (this.count > 0) this.arm();
  };
}
