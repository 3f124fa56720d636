/**
 * The open-model scheduler: starts slot i at its absolute intended time from a Pacer,
 * never "sleep after the last one" (k6 constant-arrival-rate). A slot that finds every
 * in-flight place taken is dropped and counted; one that starts late is counted late.
 * Latency is the caller's to measure from `intendedMs` (coordinated-omission corrected once).
 */
import { performance } from 'node:perf_hooks';
import type { Pacer } from './pacer.js';

export interface OpenLoopOptions {
  pacer: Pacer;
  /** Most slots in flight at once. */
  maxInFlight: number;
  /** A slot started more than this after its intended time counts as late. */
  latenessMs: number;
  /** performance.now() at which slot 0 is due. */
  startMs: number;
  signal: AbortSignal;
  /** Starts one slot. Must not throw: a failed request is a sample, not an exception. */
  fire: (slot: number, intendedMs: number) => Promise<void>;
  onLate?: (slot: number, lateByMs: number) => void;
  onDropped?: (slot: number) => void;
}

export interface OpenLoopResult {
  started: number;
  late: number;
  dropped: number;
}

/** Runs the schedule to its end (or until aborted), then waits for in-flight slots. */
export function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const { pacer, maxInFlight, latenessMs, startMs, signal, fire } = options;
  const result: OpenLoopResult = { started: 0, late: 0, dropped: 0 };
  let next = 0;
  let inFlight = 0;
  let timer: NodeJS.Timeout | undefined;

  return new Promise((resolve) => {
    let scheduleDone = false;
    const maybeResolve = (): void => {
      if (scheduleDone && inFlight === 0) resolve(result);
    };
    const finish = (): void => {
      scheduleDone = true;
      if (timer) clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      maybeResolve();
    };
    const settle = (): void => {
      inFlight--;
      maybeResolve();
    };

    const tick = (): void => {
      if (signal.aborted) {
        finish();
        return;
      }
      const now = performance.now();
      const due = pacer.dueBy(now - startMs);
      for (; next < due; next++) {
        const intendedMs = startMs + pacer.slotTimeMs(next);
        if (inFlight >= maxInFlight) {
          result.dropped++;
          options.onDropped?.(next);
          continue;
        }
        const lateByMs = now - intendedMs;
        if (lateByMs > latenessMs) {
          result.late++;
          options.onLate?.(next, lateByMs);
        }
        inFlight++;
        result.started++;
        fire(next, intendedMs)
          .catch(() => undefined)
          .finally(settle);
      }
      if (next >= pacer.totalSlots) {
        finish();
        return;
      }
      // Whole milliseconds, rounded up: libuv's timers count whole milliseconds from the loop's
      // cached clock, so a fractional wait was cut short, woke the loop before the slot was due,
      // and took a second wake-up (a 1 ms timer) to send it, about when the rounded-up wait
      // sends it with one (docs/benchmarks.md, "Open model: where the CPU goes").
      const waitMs = startMs + pacer.slotTimeMs(next) - performance.now();
      timer = setTimeout(tick, Math.max(0, Math.ceil(waitMs)));
    };

    signal.addEventListener('abort', finish, { once: true });
    tick();
  });
}
