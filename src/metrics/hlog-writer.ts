/**
 * Writes interval histograms to `histograms.hlog` in HdrHistogram's interval log format
 * (readable by HdrHistogram's HistogramLogProcessor and HdrHistogramVisualizer), one tagged
 * line per metric per interval. Lines are appended through a write stream, off the hot path.
 *
 * The log is a by-product: the report holds every interval too. So a write that fails (a
 * full disk, a folder gone read-only) stops the log and is reported once, and the run goes on.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
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

export class HlogWriter {
  private readonly stream: WriteStream;
  private readonly writer: hdr.HistogramLogWriter;
  private failure: NodeJS.ErrnoException | null = null;

  /** `onError` is called once, with the first error of the underlying stream. */
  constructor(path: string, startEpochMs: number, onError: (error: NodeJS.ErrnoException) => void = () => undefined) {
    this.stream = createWriteStream(path);
    // Without a listener, a stream error (ENOSPC, EACCES) would be thrown and end the process.
    this.stream.on('error', (error: NodeJS.ErrnoException) => {
      if (this.failure !== null) return;
      this.failure = error;
      onError(error);
    });
    this.writer = new hdr.HistogramLogWriter((text) => {
      if (this.failure === null) this.stream.write(text);
    });
    this.writer.outputComment('coachbench interval histograms: values in microseconds, max column in milliseconds');
    this.writer.outputLogFormatVersion();
    this.writer.outputStartTime(startEpochMs);
    this.writer.outputLegend();
  }

  /** Logs each tagged histogram of one interval; `startSec` is relative to the run start. */
  write(set: MetricSet, startSec: number, endSec: number): void {
    if (this.failure !== null) return;
    for (const [tag, name] of Object.entries(HLOG_TAGS)) {
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
    if (this.stream.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.stream.once('close', () => resolve());
      this.stream.end();
    });
  }
}
