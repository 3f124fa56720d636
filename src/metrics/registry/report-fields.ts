/**
 * A report root's metric fields, read from the run's total MetricSet in registry order: the
 * summary builders (chat-summary.ts, throughput-summary.ts, ...) add only their figures (rates,
 * ratios, settings) and the fields that are not metrics. So a counter, peak, histogram or
 * family declared in the registry reaches report.json without a line in a builder.
 */
import type { HistogramSummary } from '../../contract/report.js';
import type { MetricSet } from '../metric-set.js';
import type { MetricGroup } from './metric-decl.js';

/** How a builder reads a histogram: a summary, or undefined to leave the field out. */
export type HistogramReader = (name: string) => HistogramSummary | undefined;

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1) as string] = value;
}

/**
 * The report fields of `groups`, in registry order; nested paths (`resume.reconnects`) become
 * nested objects. Figures come from `figures` by report path (one given as undefined is left
 * out; one not given at all throws).
 */
export function reportFields(total: MetricSet, groups: readonly MetricGroup[], figures: Readonly<Record<string, unknown>>, histogram: HistogramReader) {
  const out: Record<string, unknown> = {};
  let counters: Readonly<Record<string, number>> | null = null;
  for (const group of groups) {
    for (const decl of group.metrics) {
      if (decl.report === undefined) continue;
      const name = `${group.prefix}${decl.name ?? ''}`;
      let value: unknown;
      if (decl.measure === 'figure') {
        // A figure's value comes only from its builder: one it forgot would silently leave the field out.
        if (!(decl.report in figures)) throw new Error(`report figure ${decl.report} has no value: give it in the summary builder's figures`);
        value = figures[decl.report];
      } else if (decl.measure === 'counter') value = total.count(name);
      else if (decl.measure === 'peak') value = total.peakOf(name);
      else if (decl.measure === 'histogram') value = histogram(name);
      else {
        counters ??= total.encodeCounters();
        const record: Record<string, number> = {};
        for (const [counter, count] of Object.entries(counters)) if (counter.startsWith(name)) record[counter.slice(name.length)] = count;
        value = record;
      }
      if (value !== undefined) setPath(out, decl.report, value);
    }
  }
  return out;
}
