/**
 * The exchanges under way (http-exchange.ts), grouped by the run's cut signal, each with the
 * moment it must be over by: one listener on the cut aborts them all at once, and one coarse
 * sweep timer per group aborts those past their deadline (docs/design.md §6, "Request
 * timeout"). Neither costs a request a timer or an abort listener of its own, which the open
 * model's CPU per request cannot afford (docs/benchmarks.md, "Open model: where the CPU goes").
 */
import { performance } from 'node:perf_hooks';

/** What an exchange under way can be told: stop, for this reason (undici's request controller). */
export interface Abortable {
  abort(reason: Error): void;
}

/** Why the sweep aborted an exchange: its deadline passed (the exchange names the phase it was in). */
export class ExchangeDeadlineError extends Error {
  constructor() {
    super('the exchange passed its deadline');
  }
}

/** The error a cut exchange fails with when the signal gives no reason of its own. */
export const cutError = (cut: AbortSignal): Error => (cut.reason instanceof Error ? cut.reason : new Error('the exchange was cut by the end of the run'));

/** The longest a sweep waits: an exchange ends at most this long after its deadline. */
export const MAX_SWEEP_MS = 1_000;
/** The shortest: a tiny timeout is not worth a busier timer than this. */
const MIN_SWEEP_MS = 10;

/** The sweep period for exchanges of `timeoutMs`: how late past its deadline one may end (docs/design.md §6). */
export const sweepPeriodFor = (timeoutMs: number): number => Math.max(MIN_SWEEP_MS, Math.min(MAX_SWEEP_MS, timeoutMs / 4));

/** The exchanges under way behind one cut signal. */
export class ExchangesUnderWay {
  /** Each exchange's deadline (performance.now() ms), by its controller. */
  private readonly live = new Map<Abortable, number>();
  private sweep: NodeJS.Timeout | undefined;
  private periodMs = MAX_SWEEP_MS;

  constructor(private readonly cut?: AbortSignal) {
    cut?.addEventListener('abort', () => this.abortAll(cutError(cut)), { once: true });
  }

  /** Tracks `controller` until `forget`; aborted at once when the cut came or its deadline passed already. */
  add(controller: Abortable, deadlineMs: number, periodMs: number): void {
    if (this.cut?.aborted) {
      controller.abort(cutError(this.cut));
      return;
    }
    if (performance.now() >= deadlineMs) {
      controller.abort(new ExchangeDeadlineError());
      return;
    }
    this.live.set(controller, deadlineMs);
    if (this.sweep === undefined || periodMs < this.periodMs) this.startSweep(periodMs);
  }

  forget(controller: Abortable): void {
    this.live.delete(controller);
  }

  /** How many exchanges are tracked, and whether a sweep is running (for tests). */
  get state(): { live: number; sweeping: boolean } {
    return { live: this.live.size, sweeping: this.sweep !== undefined };
  }

  private startSweep(periodMs: number): void {
    clearInterval(this.sweep);
    this.periodMs = periodMs;
    this.sweep = setInterval(() => this.abortOverdue(), periodMs);
    // The sweep never keeps a process alive: what it bounds is awaited by someone else.
    this.sweep.unref();
  }

  private stopSweep(): void {
    clearInterval(this.sweep);
    this.sweep = undefined;
    this.periodMs = MAX_SWEEP_MS;
  }

  private abortOverdue(): void {
    // Stopped here, not when the last exchange ends: a run at a few requests a second would
    // otherwise start and stop a timer for nearly every request.
    if (this.live.size === 0) {
      this.stopSweep();
      return;
    }
    const nowMs = performance.now();
    for (const [controller, deadlineMs] of this.live) {
      if (deadlineMs > nowMs) continue;
      this.live.delete(controller);
      controller.abort(new ExchangeDeadlineError());
    }
  }

  private abortAll(reason: Error): void {
    const all = [...this.live.keys()];
    this.live.clear();
    this.stopSweep();
    for (const controller of all) controller.abort(reason);
  }
}
