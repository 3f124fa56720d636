/**
 * The run's recorder: drivers count into `interval`; every tick the interval is logged
 * (hlog), turned into a time-series point, rolled into `total`, and reset. Memory therefore
 * stays flat however long the run: nothing per sample is kept.
 */
import { performance } from 'node:perf_hooks';
import { HlogWriter } from '../metrics/hlog-writer.js';
import { MetricSet } from '../metrics/metric-set.js';
import { TimeseriesBuilder, pointFromInterval } from '../metrics/timeseries.js';
import type { TimeseriesPoint } from '../report/report-types.js';
import { GeneratorMonitor } from './generator-monitor.js';

export interface RecorderOptions {
  intervalMs: number;
  /** Where to write histograms.hlog; null for none. */
  hlogPath: string | null;
  startEpochMs: number;
  /** Called after each interval with its point and the running total. */
  onInterval?: (point: TimeseriesPoint, total: MetricSet) => void;
}

export class Recorder {
  readonly interval = new MetricSet();
  readonly total = new MetricSet();
  readonly timeseries = new TimeseriesBuilder();
  private readonly monitor = new GeneratorMonitor();
  private readonly hlog: HlogWriter | null;
  private timer: NodeJS.Timeout | undefined;
  private readonly startMs = performance.now();
  private lastTickMs = this.startMs;
  lastRssBytes = 0;

  constructor(private readonly options: RecorderOptions) {
    this.hlog = options.hlogPath ? new HlogWriter(options.hlogPath, options.startEpochMs) : null;
  }

  start(): void {
    this.monitor.start();
    this.timer = setInterval(() => this.tick(), this.options.intervalMs);
  }

  /** Closes the current interval (also called once more at stop for the partial last one). */
  tick(): void {
    const nowMs = performance.now();
    const intervalSec = (nowMs - this.lastTickMs) / 1_000;
    if (intervalSec <= 0) return;
    const startSec = (this.lastTickMs - this.startMs) / 1_000;
    const endSec = (nowMs - this.startMs) / 1_000;
    this.lastTickMs = nowMs;
    this.lastRssBytes = this.monitor.collect(this.interval).rssBytes;
    const point = pointFromInterval(this.interval, endSec, intervalSec);
    this.hlog?.write(this.interval, startSec, endSec);
    this.timeseries.add(point);
    this.total.add(this.interval);
    this.interval.reset();
    this.options.onInterval?.(point, this.total);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.tick();
    this.monitor.stop();
    await this.hlog?.close();
  }
}
