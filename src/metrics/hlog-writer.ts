/**
 * Writes interval histograms to `histograms.hlog` in HdrHistogram's interval log format
 * (readable by HdrHistogram's HistogramLogProcessor and HdrHistogramVisualizer), one tagged
 * line per metric per interval. Lines are appended through a write stream, off the hot path.
 *
 * The log is a by-product: the report holds every interval too. So a write that fails (a
 * full disk, a folder gone read-only) stops the log and is reported once, and the run goes on.
 */
import { constants, createWriteStream, openSync, type WriteStream } from 'node:fs';
import { formatNumber, type NumberStyle } from '../util/en-us-number.js';
import { encodeHistogram, type Histogram } from './histogram.js';
import type { MetricSet } from './metric-set.js';
import { CHAT, GENERATOR, throughputNames } from './names.js';

/** Histograms logged per interval, by tag. Values are µs; the max column is written in ms. */
export const HLOG_TAGS: Record<string, string> = {
  eventLatency: CHAT.eventLatencyUs,
  keepAliveGap: CHAT.keepAliveGapUs,
  openLatency: CHAT.openLatencyUs,
  photoLatency: throughputNames('photoUpload').latencyUs,
  tagLatency: throughputNames('tagLink').latencyUs,
  eventLoopDelay: GENERATOR.loopDelayUs,
};

/**
 * O_NONBLOCK: a FIFO left at the log's path would otherwise block the open, and with it the
 * end of the run, forever; it fails with ENXIO instead. Regular files ignore the flag.
 */
/** A request kind's latency histogram, `requests.<kind>.latencyUs`. */
const KIND_LATENCY_HISTOGRAM = /^requests\.([^.]+)\.latencyUs$/;

/** The interval log format hdr-histogram-js writes, and the width it pads its time columns to. */
const LOG_FORMAT_VERSION = '1.3';
const TIME_WIDTH = 5;
/** The writer's number format: `Intl.NumberFormat('en-US')`, three decimals, no grouping. */
const TIME_STYLE: NumberStyle = { maxFractionDigits: 3, minFractionDigits: 3, grouping: false };
const time = (value: number): string => formatNumber(value, TIME_STYLE).padStart(TIME_WIDTH, ' ');

const LOG_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NONBLOCK;

export class HlogWriter {
  private readonly stream: WriteStream | null = null;
  private failure: NodeJS.ErrnoException | null = null;

  private started = false;

  /** `onError` is called once, asynchronously, with the first error of opening or writing the log. */
  constructor(path: string, onError: (error: NodeJS.ErrnoException) => void = () => undefined) {
    const fail = (error: NodeJS.ErrnoException): void => {
      if (this.failure !== null) return;
      this.failure = error;
      queueMicrotask(() => onError(error));
    };
    try {
      this.stream = createWriteStream(path, { fd: openSync(path, LOG_FLAGS, 0o644) });
      // Without a listener, a stream error (ENOSPC, EACCES) would be thrown and end the process.
      this.stream.on('error', fail);
    } catch (error) {
      fail(error as NodeJS.ErrnoException);
    }
    this.log('#coachbench interval histograms: values in microseconds, max column in milliseconds\n');
    this.log(`#[Histogram log format version ${LOG_FORMAT_VERSION}]\n`);
  }

  private log(text: string): void {
    if (this.failure === null) this.stream?.write(text);
  }

  /** One interval's line: start and length in seconds, the max in ms, the compressed histogram. */
  private logInterval(tag: string, histogram: Histogram, startSec: number, endSec: number): void {
    const start = time(startSec);
    const length = time(endSec - startSec);
    const max = time(histogram.maxValue / 1_000);
    this.log(`Tag=${tag},${start},${length},${max},${encodeHistogram(histogram)}\n`);
  }

  /**
   * Logs each tagged histogram of one interval; `startSec` is relative to the run clock's zero,
   * `zeroEpochMs` (the first call's value is the log's StartTime: tools that line the log up
   * with a target's own logs read interval times as StartTime plus `startSec`).
   */
  write(set: MetricSet, startSec: number, endSec: number, zeroEpochMs: number): void {
    if (this.failure !== null) return;
    if (!this.started) {
      this.started = true;
      this.log(`#[StartTime: ${time(zeroEpochMs / 1_000)} (seconds since epoch), ${new Date(zeroEpochMs)}]\n\n`);
      this.log('"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"\n');
    }
    // Each request kind's latency too (docs/design.md §2.15), tagged `requests.<kind>`.
    const kinds = set.histogramNames().flatMap((name) => {
      const kind = KIND_LATENCY_HISTOGRAM.exec(name)?.[1];
      return kind === undefined ? [] : [[`requests.${kind}`, name] as const];
    });
    for (const [tag, name] of [...Object.entries(HLOG_TAGS), ...kinds]) {
      if (!set.hasHistogram(name)) continue;
      const histogram = set.histogram(name);
      if (histogram.totalCount === 0) continue;
      this.logInterval(tag, histogram, startSec, endSec);
    }
  }

  /** The error that stopped the log, if one did. */
  get error(): NodeJS.ErrnoException | null {
    return this.failure;
  }

  /** Flushes and closes the file; resolves (never rejects) once the stream is closed, failed or not. */
  close(): Promise<void> {
    const stream = this.stream;
    if (stream === null || stream.closed) return Promise.resolve();
    return new Promise((resolve) => {
      stream.once('close', () => resolve());
      stream.end();
    });
  }
}
