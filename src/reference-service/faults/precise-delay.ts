/**
 * Millisecond-accurate delays for the `latency` fault. A bare setTimeout may fire early by
 * up to a millisecond (libuv measures from its cached loop time) or late under load; this
 * re-checks performance.now() and finishes the last fraction with setImmediate, so a delay
 * is never shorter than asked and rarely more than ~1 ms longer.
 */
import { performance } from 'node:perf_hooks';

/** Runs callbacks after accurate delays and can cancel them all at close(). */
export class DelayScheduler {
  private readonly timeouts = new Set<NodeJS.Timeout>();
  private readonly immediates = new Set<NodeJS.Immediate>();

  /** Pending delays (timers held); 0 when idle. */
  get size(): number {
    return this.timeouts.size + this.immediates.size;
  }

  /** Runs `fn` once `ms` have passed. `ms <= 0` runs it synchronously. */
  run(ms: number, fn: () => void): void {
    if (ms <= 0) {
      fn();
      return;
    }
    const dueMs = performance.now() + ms;
    const timeout = setTimeout(() => {
      this.timeouts.delete(timeout);
      this.finish(dueMs, fn);
    }, ms);
    this.timeouts.add(timeout);
  }

  private finish(dueMs: number, fn: () => void): void {
    if (performance.now() >= dueMs) {
      fn();
      return;
    }
    const immediate = setImmediate(() => {
      this.immediates.delete(immediate);
      this.finish(dueMs, fn);
    });
    this.immediates.add(immediate);
  }

  /** Drops every pending delay (used by close()). */
  cancelAll(): void {
    for (const t of this.timeouts) clearTimeout(t);
    for (const i of this.immediates) clearImmediate(i);
    this.timeouts.clear();
    this.immediates.clear();
  }
}
