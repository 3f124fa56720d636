/**
 * Writes interval histograms to `histograms.hlog` in HdrHistogram's interval log format
 * (readable by HdrHistogram's HistogramLogProcessor and HdrHistogramVisualizer), one tagged
 * line per metric per interval. Lines are appended through a write stream, off the hot path.
 *
 * The log is a by-product: the report holds every interval too. So a write that fails (a
 * full disk, a folder gone read-only) stops the log and is reported once, and the run goes on.
 */
import { constants, createWriteStream, openSync, type WriteStream } from 'node:fs';
import * as hdr from 'hdr-histogram-js';
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

const LOG_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NONBLOCK;

export class HlogWriter {
  private readonly stream: WriteStream | null = null;
  private readonly writer: hdr.HistogramLogWriter;
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
    this.writer = new hdr.HistogramLogWriter((text) => {
      if (this.failure === null) this.stream?.write(text);
    });
    this.writer.outputComment('coachbench interval histograms: values in microseconds, max column in milliseconds');
    this.writer.outputLogFormatVersion();
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
      this.writer.outputStartTime(zeroEpochMs);
      this.writer.outputLegend();
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
      histogram.tag = tag;
      this.writer.outputIntervalHistogram(histogram, startSec, endSec, 1_000);
      histogram.tag = '';
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
