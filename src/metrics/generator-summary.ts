/** Derives report.json's `generator` block from the run's total MetricSet: the registry's fields (registry/generator-metrics.ts) and the figures. */
import type { GeneratorBehind, GeneratorSummary, HistogramSummary } from '../contract/report.js';
import { summarizeHistogram } from './histogram.js';
import type { MetricSet } from './metric-set.js';
import { GENERATOR } from './names.js';
import { GENERATOR_METRICS } from './registry/generator-metrics.js';
import { reportFields } from './registry/report-fields.js';

export interface GeneratorSettings {
  maxEventLoopDelayP99Ms: number;
  processes: number;
  /** RSS at the end of the run (sum over processes), bytes. */
  rssBytes: number;
}

/**
 * Share of the judged run a driver may spend behind before generator.healthy fails: past it,
 * a p99 over the run can be made of the driver's own lag even when the loop's p99 reads well.
 */
export const MAX_BEHIND_SHARE = 0.01;

function behindOf(total: MetricSet): GeneratorBehind {
  const judgedUs = total.count(GENERATOR.judgedUs);
  const behindUs = total.count(GENERATOR.behindUs);
  return {
    intervals: total.count(GENERATOR.behindIntervals),
    seconds: Math.round(behindUs / 1_000) / 1_000,
    share: judgedUs > 0 ? Math.round((behindUs / judgedUs) * 10_000) / 10_000 : 0,
    maxShare: MAX_BEHIND_SHARE,
  };
}

export function buildGeneratorSummary(total: MetricSet, settings: GeneratorSettings): GeneratorSummary {
  const eventLoopDelayMs = summarizeHistogram(total.histogram(GENERATOR.loopDelayUs));
  const requestLoopDelayMs = total.hasHistogram(GENERATOR.requestLoopDelayUs) ? summarizeHistogram(total.histogram(GENERATOR.requestLoopDelayUs)) : undefined;
  const wallUs = total.count(GENERATOR.wallUs);
  const behind = behindOf(total);
  const worstP99 = Math.max(eventLoopDelayMs.p99, requestLoopDelayMs?.p99 ?? 0);
  const figures = {
    // CPU of all driver processes over their summed wall time: percent of one core per process.
    cpuPercent: wallUs > 0 ? Math.round((total.count(GENERATOR.cpuUs) / wallUs) * 1_000) / 10 : 0,
    rssBytes: settings.rssBytes,
    saturated: worstP99 > settings.maxEventLoopDelayP99Ms || behind.share > behind.maxShare,
    maxEventLoopDelayP99Ms: settings.maxEventLoopDelayP99Ms,
    processes: settings.processes,
    'behind.seconds': behind.seconds,
    'behind.share': behind.share,
  };
  const loops: Record<string, HistogramSummary | undefined> = { [GENERATOR.loopDelayUs]: eventLoopDelayMs, [GENERATOR.requestLoopDelayUs]: requestLoopDelayMs };
  // Histograms other than the two loops' appear once recorded. The registry test holds these fields to GeneratorSummary.
  const fields = reportFields(total, [GENERATOR_METRICS], figures, (name) =>
    name in loops ? loops[name] : total.hasHistogram(name) ? summarizeHistogram(total.histogram(name)) : undefined,
  );
  return { ...fields, behind: { ...(fields.behind as object), maxShare: behind.maxShare } } as unknown as GeneratorSummary;
}
