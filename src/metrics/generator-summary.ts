/** Derives report.json's `generator` block from the run's total MetricSet. */
import type { GeneratorSummary } from '../contract/report.js';
import { summarizeHistogram } from './histogram.js';
import type { MetricSet } from './metric-set.js';
import { GENERATOR } from './names.js';

export interface GeneratorSettings {
  maxEventLoopDelayP99Ms: number;
  processes: number;
  /** RSS at the end of the run (sum over processes), bytes. */
  rssBytes: number;
}

export function buildGeneratorSummary(total: MetricSet, settings: GeneratorSettings): GeneratorSummary {
  const eventLoopDelayMs = summarizeHistogram(total.histogram(GENERATOR.loopDelayUs));
  const wallUs = total.count(GENERATOR.wallUs);
  return {
    eventLoopDelayMs,
    // CPU of all driver processes over their summed wall time: percent of one core per process.
    cpuPercent: wallUs > 0 ? Math.round((total.count(GENERATOR.cpuUs) / wallUs) * 1_000) / 10 : 0,
    rssBytes: settings.rssBytes,
    peakRssBytes: total.peakOf(GENERATOR.rssBytes),
    saturated: eventLoopDelayMs.p99 > settings.maxEventLoopDelayP99Ms,
    maxEventLoopDelayP99Ms: settings.maxEventLoopDelayP99Ms,
    processes: settings.processes,
  };
}
