/**
 * Where interval snapshots end up: logged to histograms.hlog, turned into a time-series point,
 * rolled into the run total. Fed by this process's recorder, or by the parent merging the
 * same interval of every worker.
 */

import type { TimeseriesPoint } from '../contract/report.js';
import { HlogWriter } from './hlog-writer.js';
import { MetricSet } from './metric-set.js';
import { CHAT, GENERATOR } from './names.js';
import { pointFromInterval, TimeseriesBuilder } from './timeseries.js';

export interface CollectorOptions {
  hlogPath: string | null;
  /**
   * The epoch (ms) of the run clock's zero, the instant load starts, when it is known in
   * advance (--start-at). Null: the first interval tells it, as its arrival less its end. Not
   * the session's start: corpus, probes and threads are ready before the clock starts.
   */
  startEpochMs: number | null;
  /** Each interval as it closes; `interval` is reset right after the call (read it, never keep it). */
  onInterval?: (point: TimeseriesPoint, total: MetricSet, interval: MetricSet) => void;
  /**
   * Called once if histograms.hlog cannot be written: `afterSec` is the end of the last
   * interval ingested before the error. The collector goes on; only the log stops.
   */
  onHlogError?: (error: NodeJS.ErrnoException, afterSec: number) => void;
  /** The profile's warm-up: intervals that start inside it are marked and not passed on to `afterWarmup`. */
  warmupSec?: number;
  /** Every interval after the warm-up (thresholds judge only these). */
  afterWarmup?: (interval: MetricSet, startSec: number, endSec: number) => void;
}

/** The counters the collector adds to each interval itself (the judged and behind time); drivers never count them. */
export const COLLECTOR_COUNTERS: readonly string[] = [
  GENERATOR.judgedUs,
  GENERATOR.behindUs,
  GENERATOR.behindIntervals,
  CHAT.keepAliveViolationsBehind,
  CHAT.keepAliveBunchedBehind,
  CHAT.stalledSilentAfterHeadersBehind,
];

/** Interval edges jitter by a few ms; an interval starting this close to the warm-up's end is past it. */
const WARMUP_EDGE_SEC = 0.05;

export class IntervalCollector {
  readonly total = new MetricSet();
  readonly timeseries = new TimeseriesBuilder();
  private readonly hlog: HlogWriter | null;
  private lastEndSec = 0;
  private zeroEpochMs: number | null;

  constructor(private readonly options: CollectorOptions) {
    this.zeroEpochMs = options.startEpochMs;
    this.hlog = options.hlogPath ? new HlogWriter(options.hlogPath, (error) => options.onHlogError?.(error, this.lastEndSec)) : null;
  }

  ingest(interval: MetricSet, startSec: number, endSec: number): void {
    // A recorder hands its interval on as it closes it (a worker's within an IPC hop): this
    // is the clock's zero within a millisecond or so.
    this.zeroEpochMs ??= Date.now() - endSec * 1_000;
    this.lastEndSec = endSec;
    const warmup = startSec < (this.options.warmupSec ?? 0) - WARMUP_EDGE_SEC;
    const behind = interval.count(GENERATOR.behindProcesses) > 0;
    // A gap closed while a driver was behind may be the driver's late read, not the target's late frame.
    if (behind) {
      interval.inc(CHAT.keepAliveViolationsBehind, interval.count(CHAT.keepAliveViolations));
      interval.inc(CHAT.keepAliveBunchedBehind, interval.count(CHAT.keepAliveBunched));
      interval.inc(CHAT.stalledSilentAfterHeadersBehind, interval.count(CHAT.stalledSilentAfterHeaders));
    }
    if (!warmup) {
      // What generator.healthy weighs: how much of the judged run a driver spent behind.
      const intervalUs = Math.round((endSec - startSec) * 1e6);
      interval.inc(GENERATOR.judgedUs, intervalUs);
      if (behind) {
        interval.inc(GENERATOR.behindUs, intervalUs);
        interval.inc(GENERATOR.behindIntervals);
      }
    }
    const point = pointFromInterval(interval, endSec, endSec - startSec);
    if (behind) point.generatorBehind = true;
    if (warmup) point.warmup = true;
    else this.options.afterWarmup?.(interval, startSec, endSec);
    this.hlog?.write(interval, startSec, endSec, this.zeroEpochMs);
    this.timeseries.add(point);
    this.total.add(interval);
    this.options.onInterval?.(point, this.total, interval);
  }

  async close(): Promise<void> {
    await this.hlog?.close();
  }
}
