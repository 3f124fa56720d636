/**
 * A loop's recorder: drivers count into `interval`; every tick the generator's own health
 * is added, the interval goes to the sink (the local collector, or the parent of a worker),
 * and is reset. Nothing per sample is kept, so memory stays flat however long the run.
 *
 * Ticks keep to a fixed grid from the run clock's zero (interval n closes at zero + (n+1) ×
 * length), not to a timer re-armed after each late tick: loops that share a zero (a driver's
 * main loop and its request thread, workers started at --start-at) then close interval n
 * within a timer's lateness of each other however long the run, and their intervals merge by
 * index. A stall that swallows whole boundaries closes one long interval; the indices it
 * swallowed are skipped, never reused.
 */
import { performance } from 'node:perf_hooks';
import { GeneratorMonitor, type MonitoredLoop } from './generator-monitor.js';
import { MetricSet } from './metric-set.js';
import { GENERATOR } from './names.js';

/**
 * Receives each closed interval; must not keep `interval` (it is reset right after). `index`
 * is its place on the run clock's grid (it rises, and skips what a stall swallowed).
 */
export type IntervalSink = (interval: MetricSet, startSec: number, endSec: number, index: number) => void;

export class Recorder {
  readonly interval = new MetricSet();
  /** Told as each interval closes, before it is handed on (recorder.onClose). */
  private readonly closing: Array<(nowMs: number) => void> = [];
  private readonly monitor: GeneratorMonitor;
  private timer: NodeJS.Timeout | undefined;
  private lastTickMs: number;
  /** The grid index of the interval being recorded. */
  private index = 0;
  private stopped = false;
  lastRssBytes = 0;

  /**
   * `behindAboveMs`: an interval whose event-loop delay p99 exceeds it counts this process as
   * behind (GENERATOR.behindProcesses), so the run can mark the seconds it measured itself.
   * `loop`: whose event loop this recorder watches (a request thread's counts no CPU or RSS).
   * `zeroMs`: the run clock's zero on this thread's performance.now() clock (now by default).
   */
  constructor(
    private readonly intervalMs: number,
    private readonly sink: IntervalSink,
    private readonly behindAboveMs = Number.POSITIVE_INFINITY,
    loop: MonitoredLoop = 'process',
    private readonly zeroMs = performance.now(),
  ) {
    this.monitor = new GeneratorMonitor(loop);
    this.lastTickMs = zeroMs;
  }

  /**
   * Runs `listener` as each interval closes, before it is handed on: a count integrated over
   * time (stream-seconds held) is brought up to the edge and lands in the interval it belongs to.
   */
  onClose(listener: (nowMs: number) => void): void {
    this.closing.push(listener);
  }

  start(): void {
    this.monitor.start();
    this.schedule();
  }

  private schedule(): void {
    // A sink may stop the recorder from inside its tick: no timer after stop.
    if (this.stopped) return;
    const dueMs = this.zeroMs + (this.index + 1) * this.intervalMs;
    const fire = (): void => {
      // libuv counts whole milliseconds from the loop's cached clock, so a timer can fire up to
      // a millisecond before performance.now() reaches the boundary: wait out the rest.
      const earlyMs = dueMs - performance.now();
      if (earlyMs > 0) {
        this.timer = setTimeout(fire, Math.ceil(earlyMs));
        return;
      }
      this.tick();
      this.schedule();
    };
    this.timer = setTimeout(fire, Math.ceil(dueMs - performance.now()));
  }

  /** Closes the current interval (also called once more at stop for the partial last one). */
  private tick(): void {
    const nowMs = performance.now();
    if (nowMs <= this.lastTickMs) return;
    const startSec = (this.lastTickMs - this.zeroMs) / 1_000;
    const endSec = (nowMs - this.zeroMs) / 1_000;
    this.lastTickMs = nowMs;
    for (const listener of this.closing) listener(nowMs);
    const { rssBytes, loopDelayP99Ms } = this.monitor.collect(this.interval);
    this.lastRssBytes = rssBytes;
    if (loopDelayP99Ms > this.behindAboveMs) this.interval.inc(GENERATOR.behindProcesses);
    this.sink(this.interval, startSec, endSec, this.index);
    this.interval.reset();
    // The next interval is the one whose boundary is still ahead.
    this.index = Math.max(this.index + 1, Math.floor((nowMs - this.zeroMs) / this.intervalMs));
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.tick();
    this.monitor.stop();
  }
}
