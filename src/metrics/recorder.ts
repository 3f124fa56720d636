/**
 * A process's recorder: drivers count into `interval`; every tick the generator's own health
 * is added, the interval goes to the sink (the local collector, or the parent of a worker),
 * and is reset. Nothing per sample is kept, so memory stays flat however long the run.
 */
import { performance } from 'node:perf_hooks';
import { GeneratorMonitor, type MonitoredLoop } from './generator-monitor.js';
import { MetricSet } from './metric-set.js';
import { GENERATOR } from './names.js';

/** Receives each closed interval; must not keep `interval` (it is reset right after). */
export type IntervalSink = (interval: MetricSet, startSec: number, endSec: number) => void;

export class Recorder {
  readonly interval = new MetricSet();
  private readonly monitor: GeneratorMonitor;
  private timer: NodeJS.Timeout | undefined;
  private readonly startMs = performance.now();
  private lastTickMs = this.startMs;
  lastRssBytes = 0;

  /**
   * `behindAboveMs`: an interval whose event-loop delay p99 exceeds it counts this process as
   * behind (GENERATOR.behindProcesses), so the run can mark the seconds it measured itself.
   * `loop`: whose event loop this recorder watches (a request thread's counts no CPU or RSS).
   */
  constructor(
    private readonly intervalMs: number,
    private readonly sink: IntervalSink,
    private readonly behindAboveMs = Number.POSITIVE_INFINITY,
    loop: MonitoredLoop = 'process',
  ) {
    this.monitor = new GeneratorMonitor(loop);
  }

  start(): void {
    this.monitor.start();
    this.timer = setInterval(() => this.tick(), this.intervalMs);
  }

  /** Closes the current interval (also called once more at stop for the partial last one). */
  tick(): void {
    const nowMs = performance.now();
    if (nowMs <= this.lastTickMs) return;
    const startSec = (this.lastTickMs - this.startMs) / 1_000;
    const endSec = (nowMs - this.startMs) / 1_000;
    this.lastTickMs = nowMs;
    const { rssBytes, loopDelayP99Ms } = this.monitor.collect(this.interval);
    this.lastRssBytes = rssBytes;
    if (loopDelayP99Ms > this.behindAboveMs) this.interval.inc(GENERATOR.behindProcesses);
    this.sink(this.interval, startSec, endSec);
    this.interval.reset();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.tick();
    this.monitor.stop();
  }
}
