/**
 * A named set of counters, peaks and HDR histograms: the one mergeable unit of measurement.
 * Drivers count into a MetricSet; an interval's set rolls into the run total and is then
 * reset, so memory stays flat however long a run is. Encoded sets travel between workers
 * and inside report.json, and merge exactly (counters add, peaks add across concurrent
 * shards, histograms add bucket by bucket).
 */
import { type EncodedMetrics, SLOWEST_PER_KEY, type SlowRequest } from '../contract/encoded-metrics.js';
import { redactedStart } from '../util/redact.js';
import { createHistogram, decodeHistogram, encodeHistogram, type Histogram, settleMax } from './histogram.js';

const MAX_SAMPLES_PER_KEY = 5;

/**
 * The most characters one sample keeps (docs/design.md §6, "Bounded samples"): a sample may
 * quote what a target sent (a session id of its choosing, a gateway's words), which only
 * the frame or header bounds hold otherwise.
 */
export const MAX_SAMPLE_CHARS = 1_000;

/** `text` masked, then cut to MAX_SAMPLE_CHARS with `…` (never inside a surrogate pair). */
function sampleText(text: string): string {
  const masked = redactedStart(text, MAX_SAMPLE_CHARS);
  if (masked.length <= MAX_SAMPLE_CHARS) return masked;
  let end = MAX_SAMPLE_CHARS - 1;
  const last = masked.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${masked.slice(0, end)}…`;
}

/** Peaks in milliseconds measure how long something ran, not how much of it ran at once. */
export const isTimeExtent = (peakName: string): boolean => peakName.endsWith('Ms');

/** Whether a request `latencyMs` long belongs among the slowest `list` holds. */
const ranksAmong = (list: readonly SlowRequest[], latencyMs: number): boolean =>
  list.length < SLOWEST_PER_KEY || latencyMs > list[SLOWEST_PER_KEY - 1]!.latencyMs;

/** Puts `slow` in its place in `list` (slowest first), dropping the fastest past SLOWEST_PER_KEY. */
function insertSlow(list: SlowRequest[], slow: SlowRequest): void {
  let at = list.length;
  while (at > 0 && list[at - 1]!.latencyMs < slow.latencyMs) at--;
  list.splice(at, 0, slow);
  if (list.length > SLOWEST_PER_KEY) list.pop();
}

export class MetricSet {
  private readonly counters = new Map<string, number>();
  private readonly peaks = new Map<string, number>();
  private readonly histograms = new Map<string, Histogram>();
  private readonly samples = new Map<string, string[]>();
  /** Per key, the slowest traced requests, slowest first (at most SLOWEST_PER_KEY). */
  private readonly slowestByKey = new Map<string, SlowRequest[]>();

  inc(name: string, by = 1): void {
    this.counters.set(name, (this.counters.get(name) ?? 0) + by);
  }

  count(name: string): number {
    return this.counters.get(name) ?? 0;
  }

  /** A copy of every counter, for summaries that group counters by prefix. */
  encodeCounters(): Record<string, number> {
    return Object.fromEntries(this.counters);
  }

  peak(name: string, value: number): void {
    if (value > (this.peaks.get(name) ?? -Infinity)) this.peaks.set(name, value);
  }

  peakOf(name: string): number {
    return this.peaks.get(name) ?? 0;
  }

  /** The histogram of `name`, created on first use. Record integer microseconds. */
  histogram(name: string): Histogram {
    let histogram = this.histograms.get(name);
    if (!histogram) {
      histogram = createHistogram();
      this.histograms.set(name, histogram);
    }
    return histogram;
  }

  hasHistogram(name: string): boolean {
    return this.histograms.has(name);
  }

  /** The names of the histograms recorded so far (request kinds' are named at run time). */
  histogramNames(): string[] {
    return [...this.histograms.keys()];
  }

  /**
   * Keeps the first few samples of `key` (e.g. the first failures of a check), masked
   * (util/redact.ts) and cut to MAX_SAMPLE_CHARS: every sample any driver takes passes here,
   * and only the few kept pay.
   */
  sample(key: string, text: string): void {
    const list = this.samples.get(key) ?? [];
    if (list.length >= MAX_SAMPLES_PER_KEY) return;
    list.push(sampleText(text));
    this.samples.set(key, list);
  }

  samplesOf(key: string): readonly string[] {
    return this.samples.get(key) ?? [];
  }

  /**
   * Keeps `traceId` (and `spanId`) among the slowest of `key` if `latencyMs` is
   * (docs/design.md §2.12), stamped with the time it is kept: called as the request is
   * answered (or the delivery arrives), that is when it completed. Most requests fail the
   * first comparison, so the cost per request is one array read, and only a kept one reads
   * the clock.
   */
  slow(key: string, traceId: string, latencyMs: number, spanId?: string): void {
    const list = this.slowestListOf(key);
    if (!ranksAmong(list, latencyMs)) return;
    const atMs = Date.now();
    insertSlow(list, spanId === undefined ? { traceId, latencyMs, atMs } : { traceId, spanId, latencyMs, atMs });
  }

  /** Keeps a copy of `slow` (another set's, a worker's or a shard's) among the slowest of `key` if it is; its time stays its own. */
  private keepSlow(key: string, slow: SlowRequest): void {
    const list = this.slowestListOf(key);
    if (ranksAmong(list, slow.latencyMs)) insertSlow(list, { ...slow });
  }

  private slowestListOf(key: string): SlowRequest[] {
    let list = this.slowestByKey.get(key);
    if (list === undefined) {
      list = [];
      this.slowestByKey.set(key, list);
    }
    return list;
  }

  /** A copy of the slowest, as EncodedMetrics carries it (latency to the µs, as report.json's): absent when none was kept. */
  encodeSlowest(): Pick<EncodedMetrics, 'slowest'> {
    if (this.slowestByKey.size === 0) return {};
    return {
      slowest: Object.fromEntries(
        [...this.slowestByKey].map(([key, list]) => [key, list.map((slow) => ({ ...slow, latencyMs: Math.round(slow.latencyMs * 1_000) / 1_000 }))]),
      ),
    };
  }

  slowestOf(key: string): readonly SlowRequest[] {
    return this.slowestByKey.get(key) ?? [];
  }

  /** Adds another set into this one (an interval into the total, a worker into the parent). */
  add(other: MetricSet): void {
    for (const [name, value] of other.counters) this.inc(name, value);
    for (const [name, value] of other.peaks) this.peak(name, value);
    for (const [name, histogram] of other.histograms) this.histogram(name).add(histogram);
    for (const [key, list] of other.samples) for (const text of list) this.sample(key, text);
    for (const [key, list] of other.slowestByKey) for (const slow of list) this.keepSlow(key, slow);
  }

  /**
   * Takes `other` (a part previously added) back out: counters and histograms subtract
   * exactly. Peaks cannot be undone, so they are all cleared; the caller re-applies the
   * peaks of the parts that remain (a sliding window does).
   */
  subtract(other: MetricSet): void {
    for (const [name, value] of other.counters) this.counters.set(name, this.count(name) - value);
    for (const [name, histogram] of other.histograms) if (histogram.totalCount > 0) this.histogram(name).subtract(histogram);
    this.peaks.clear();
    // Nor can the slowest: a sliding window judges thresholds, it lists no slow requests.
    this.slowestByKey.clear();
  }

  /**
   * Adds an encoded set. With `concurrent` (workers or shards running side by side), gauge
   * peaks (open streams, RSS) add up, an upper bound of the joint peak; a peak named `…Ms`
   * is a time extent (how long a scenario ran), which side-by-side processes share, so it
   * takes the max (summing it would divide throughput by the number of processes).
   */
  addEncoded(encoded: EncodedMetrics, concurrent = false): void {
    for (const [name, value] of Object.entries(encoded.counters)) this.inc(name, value);
    for (const [name, value] of Object.entries(encoded.peaks)) {
      if (concurrent && !isTimeExtent(name)) this.peaks.set(name, (this.peaks.get(name) ?? 0) + value);
      else this.peak(name, value);
    }
    for (const [name, base64] of Object.entries(encoded.histograms)) {
      const histogram = this.histogram(name);
      const before = histogram.totalCount > 0 ? histogram.maxValue : 0;
      histogram.add(decodeHistogram(base64));
      // Back from the top bucket's edge to the exact max, which lies in that same bucket.
      const exact = encoded.maxima?.[name];
      if (exact !== undefined) settleMax(histogram, Math.max(before, exact));
    }
    for (const [key, list] of Object.entries(encoded.samples)) for (const text of list) this.sample(key, text);
    for (const [key, list] of Object.entries(encoded.slowest ?? {})) for (const slow of list) this.keepSlow(key, slow);
  }

  encode(): EncodedMetrics {
    const histograms: Record<string, string> = {};
    const maxima: Record<string, number> = {};
    for (const [name, histogram] of this.histograms) {
      histograms[name] = encodeHistogram(histogram);
      if (histogram.totalCount > 0) maxima[name] = histogram.maxValue;
    }
    return {
      counters: Object.fromEntries(this.counters),
      peaks: Object.fromEntries(this.peaks),
      histograms,
      maxima,
      samples: Object.fromEntries(this.samples),
      // Absent without traced requests: an untraced run's report is as before.
      ...this.encodeSlowest(),
    };
  }

  /** Empties the set, keeping histogram allocations for reuse. */
  reset(): void {
    this.counters.clear();
    this.peaks.clear();
    for (const histogram of this.histograms.values()) histogram.reset();
    this.samples.clear();
    this.slowestByKey.clear();
  }

  static decode(encoded: EncodedMetrics): MetricSet {
    const set = new MetricSet();
    set.addEncoded(encoded);
    return set;
  }
}
