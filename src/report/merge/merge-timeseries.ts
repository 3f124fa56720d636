/**
 * Aligns the time series of shards that ran side by side. Points are matched by the elapsed
 * interval they cover (seconds since each shard's own start: wall clocks of two machines
 * are never compared), on the coarsest resolution any shard used.
 */

import type { TimeseriesPoint } from '../../contract/report.js';
import { mergePoints } from '../../metrics/timeseries.js';

/*
 * The recorder ticks every second and compaction doubles a point's span, so a shard's
 * nominal resolution is a power-of-two multiple of the base interval. A tick delayed by
 * load makes one point wider, so the resolution is read from the median point, snapped to
 * the power of two, and the coarsest shard's resolution is the common one.
 */
function nominalWidthSec(points: readonly TimeseriesPoint[]): number {
  const widths = points
    .map((p) => p.intervalSec)
    .filter((w) => w > 0)
    .sort((a, b) => a - b);
  const median = widths[Math.floor(widths.length / 2)];
  return median === undefined ? 0 : 2 ** Math.round(Math.log2(median));
}

/*
 * A point's tSec is the END of its interval and timers jitter by a few ms, so rounding tSec
 * would put a 1.003 s point in bucket 2 and a short last interval (30.0, 30.4] in bucket 30.
 * The midpoint of the covered interval lands in the right bucket in both cases.
 */
const bucketOf = (point: TimeseriesPoint, widthSec: number): number => Math.floor((point.tSec - point.intervalSec / 2) / widthSec);

/**
 * One series from many shards' series. Within a shard, points falling in one bucket are
 * consecutive and merge in time (counts add, gauges take the max); across shards, the
 * bucket's points merge side by side (counts and gauges add, the p50s, p90s and p99s take
 * the max, an upper bound on the merged interval's percentile: exact interval percentiles
 * stay in each shard's histograms.hlog).
 */
export function alignTimeseries(series: readonly (readonly TimeseriesPoint[])[]): TimeseriesPoint[] {
  const widthSec = Math.max(0, ...series.map(nominalWidthSec));
  if (widthSec <= 0) return [];
  const merged = new Map<number, TimeseriesPoint>();
  for (const points of series) {
    const mine = new Map<number, TimeseriesPoint>();
    for (const point of points) {
      const bucket = bucketOf(point, widthSec);
      const held = mine.get(bucket);
      mine.set(bucket, held ? mergePoints(held, point, false) : point);
    }
    for (const [bucket, point] of mine) {
      const held = merged.get(bucket);
      merged.set(bucket, held ? mergePoints(held, point, true) : point);
    }
  }
  return [...merged.entries()].sort((a, b) => a[0] - b[0]).map(([, point]) => point);
}
