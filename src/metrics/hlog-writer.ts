/**
 * Writes interval histograms to `histograms.hlog` in HdrHistogram's interval log format
 * (readable by HdrHistogram's HistogramLogProcessor and HdrHistogramVisualizer), one tagged
 * line per metric per interval. Lines are appended through a write stream, off the hot path.
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

  constructor(path: string, startEpochMs: number) {
    this.stream = createWriteStream(path);
    this.writer = new hdr.HistogramLogWriter((text) => this.stream.write(text));
    this.writer.outputComment('coachbench interval histograms: values in microseconds, max column in milliseconds');
    this.writer.outputLogFormatVersion();
    this.writer.outputStartTime(startEpochMs);
    this.writer.outputLegend();
  }

  /** Logs each tagged histogram of one interval; `startSec` is relative to the run start. */
  write(set: MetricSet, startSec: number, endSec: number): void {
    for (const [tag, name] of Object.entries(HLOG_TAGS)) {
      if (!set.hasHistogram(name)) continue;
      const histogram = set.histogram(name);
      if (histogram.totalCount === 0) continue;
      histogram.tag = tag;
      this.writer.outputIntervalHistogram(histogram, startSec, endSec, 1_000);
      histogram.tag = '';
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.stream.end(resolve));
  }
}
