/**
 * histograms.hlog is written without hdr-histogram-js's HistogramLogWriter (whose load builds an
 * ICU number format), so its text must stay the writer's, character for character: the same
 * headers, the same three-decimal numbers, the same tagged lines.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as hdr from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import { HLOG_TAGS, HlogWriter } from '../../src/metrics/hlog-writer.js';
import { MetricSet } from '../../src/metrics/metric-set.js';
import { seededRandom } from '../../src/util/seeded-random.js';

describe('HlogWriter', () => {
  it("writes hdr-histogram-js's HistogramLogWriter's text", async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'coachbench-hlog-')), 'histograms.hlog');
    const writer = new HlogWriter(path);
    let expected = '';
    const reference = new hdr.HistogramLogWriter((text) => {
      expected += text;
    });
    reference.outputComment('coachbench interval histograms: values in microseconds, max column in milliseconds');
    reference.outputLogFormatVersion();

    const zeroEpochMs = 1_764_180_000_123.5;
    reference.outputStartTime(zeroEpochMs);
    reference.outputLegend();
    const next = seededRandom(7);
    // Interval bounds with ties at the fourth decimal, where toFixed and ICU part.
    const bounds = [0, 1.0005, 2.0005, 3.2345];
    for (let i = 0; i + 1 < bounds.length; i++) {
      const set = new MetricSet();
      for (const name of [HLOG_TAGS.photoLatency!, HLOG_TAGS.eventLoopDelay!, 'requests.lookup.latencyUs']) {
        for (let n = 0; n < 200; n++) set.histogram(name).recordValue(Math.floor(next() * 50_000) + 1_235 * i);
      }
      writer.write(set, bounds[i]!, bounds[i + 1]!, zeroEpochMs);
      for (const [tag, name] of [...Object.entries(HLOG_TAGS), ['requests.lookup', 'requests.lookup.latencyUs'] as const]) {
        if (!set.hasHistogram(name)) continue;
        const histogram = set.histogram(name);
        histogram.tag = tag;
        reference.outputIntervalHistogram(histogram, bounds[i]!, bounds[i + 1]!, 1_000);
      }
    }
    await writer.close();
    const written = await readFile(path, 'utf8');
    expect(written.split('\n').filter((line) => line.startsWith('Tag=')).length).toBe(9);
    expect(written).toBe(expected);
  });
});
