/**
 * The generator watches itself (docs/design.md §6): event-loop delay from
 * perf_hooks.monitorEventLoopDelay, CPU time and RSS, counted into the interval MetricSet
 * so they merge across workers like everything else.
 */
import { type IntervalHistogram, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { MetricSet } from './metric-set.js';
import { GENERATOR } from './names.js';

/** Sampling period of the event-loop monitor, ms. */
const RESOLUTION_MS = 10;

/** RSS, or 0 when the process is out of file descriptors (libuv reads /proc): never crash the run for it. */
function readRss(): number {
  try {
    return process.memoryUsage.rss();
  } catch {
    return 0;
  }
}

/**
 * `process`: the process's main loop, with the process's CPU, wall time and RSS.
 * `requestThread`: a worker thread's loop alone; CPU and RSS are the process's, counted once by its main loop.
 */
export type MonitoredLoop = 'process' | 'requestThread';

export class GeneratorMonitor {
  private readonly loop: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private lastCpu = process.cpuUsage();
  private lastWallMs = performance.now();

  constructor(private readonly kind: MonitoredLoop = 'process') {}

  start(): void {
    this.loop.enable();
  }

  /**
   * Moves the interval's measurements into `metrics`. The loop-delay histogram is rebuilt
   * from node's own percentile ticks (each tick's value weighted by its share of the count),
   * which preserves its HDR shape to node's precision; values are converted ns → µs.
   * Node records the whole timer period, so the resolution is subtracted to get the delay.
   */
  collect(metrics: MetricSet): { loopDelayP99Ms: number; rssBytes: number; cpuPercent: number } {
    const target = metrics.histogram(this.kind === 'process' ? GENERATOR.loopDelayUs : GENERATOR.requestLoopDelayUs);
    const count = this.loop.count;
    let previousPercent = 0;
    for (const [percent, valueNs] of this.loop.percentiles) {
      const share = Math.round(((percent - previousPercent) / 100) * count);
      if (share > 0) target.recordValueWithCount(Math.max(0, Math.round(valueNs / 1_000) - RESOLUTION_MS * 1_000), share);
      previousPercent = percent;
    }
    const loopDelayP99Ms = count > 0 ? Math.max(0, this.loop.percentile(99) / 1e6 - RESOLUTION_MS) : 0;
    this.loop.reset();
    if (this.kind === 'requestThread') return { loopDelayP99Ms, rssBytes: 0, cpuPercent: 0 };

    const cpu = process.cpuUsage(this.lastCpu);
    this.lastCpu = process.cpuUsage();
    const nowMs = performance.now();
    const wallUs = (nowMs - this.lastWallMs) * 1_000;
    this.lastWallMs = nowMs;
    const cpuUs = cpu.user + cpu.system;
    metrics.inc(GENERATOR.cpuUs, cpuUs);
    metrics.inc(GENERATOR.wallUs, Math.round(wallUs));
    const rssBytes = readRss();
    metrics.peak(GENERATOR.rssBytes, rssBytes);
    return { loopDelayP99Ms, rssBytes, cpuPercent: wallUs > 0 ? (cpuUs / wallUs) * 100 : 0 };
  }

  stop(): void {
    this.loop.disable();
  }
}
