/**
 * Latency percentile distributions (HdrHistogram plot style), one chart per measured
 * latency; thresholds on a plotted histogram are drawn as reference lines.
 */
import type { HistogramSummary, Report, RequestKindSummary, ThresholdResult, ThroughputSummary } from '../../contract/report.js';
import type { MetricRootName } from '../../metrics/metric-catalog.js';
import { parseThreshold } from '../../metrics/thresholds.js';
import { formatCount, formatMs } from '../format.js';
import { type PercentileSeries, percentileChart } from '../svg/percentile-chart.js';
import { figure, grid, section } from './parts.js';

/** `n=2,000 · p50 1.82 ms · ... · max 10.2 ms`, from the summary (already HDR-derived). */
export function percentileNote(name: string, summary: HistogramSummary): string {
  if (summary.count === 0) return `${name}: no samples`;
  const parts = [
    `n=${formatCount(summary.count)}`,
    `p50 ${formatMs(summary.p50)}`,
    `p90 ${formatMs(summary.p90)}`,
    `p99 ${formatMs(summary.p99)}`,
    `p99.9 ${formatMs(summary.p999)}`,
    `max ${formatMs(summary.max)}`,
  ];
  return `${name}: ${parts.join(' · ')}`;
}

/** Threshold limits on `root.field.<stat>` for this histogram, as reference lines. */
export function thresholdReferences(
  thresholds: readonly Pick<ThresholdResult, 'expression'>[],
  root: MetricRootName,
  field: string,
): { name: string; valueMs: number }[] {
  const refs: { name: string; valueMs: number }[] = [];
  for (const result of thresholds) {
    try {
      const parsed = parseThreshold(result.expression, 'report');
      if (parsed.metric.root === root && parsed.metric.field === field && parsed.metric.unit === 'ms') {
        refs.push({ name: `threshold ${parsed.metric.sub ?? ''} ${parsed.op} ${formatMs(parsed.limit)}`, valueMs: parsed.limit });
      }
    } catch {
      // Expressions from another coachbench version: nothing to draw, the table still lists them.
    }
  }
  return refs;
}

interface LatencyPlot {
  caption: string;
  detail: string;
  root: MetricRootName;
  field: string;
  series: { name: string; summary: HistogramSummary }[];
}

function plots(report: Report): LatencyPlot[] {
  const { chatStreams, photoUpload, tagLink } = report.scenarios;
  const list: LatencyPlot[] = [];
  if (chatStreams) {
    list.push(
      {
        caption: 'Chat event delivery latency',
        detail: 'intended send of the injected message → arrival on each open stream of its session',
        root: 'chatStreams',
        field: 'eventLatencyMs',
        series: [{ name: 'event latency', summary: chatStreams.eventLatencyMs }],
      },
      {
        caption: 'Chat stream open latency',
        detail: 'request → 200 text/event-stream headers',
        root: 'chatStreams',
        field: 'openLatencyMs',
        series: [{ name: 'open latency', summary: chatStreams.openLatencyMs }],
      },
    );
  }
  if (photoUpload) list.push(throughputPlot('Photo upload latency', 'photoUpload', 'latencyMs', photoUpload));
  if (tagLink) list.push(throughputPlot('Tag link latency', 'tagLink', 'latencyMs', tagLink));
  return [...list, ...requestKindPlots(report.scenarios.requests ?? {})];
}

function throughputPlot(caption: string, root: MetricRootName, field: string, summary: ThroughputSummary): LatencyPlot {
  const corrected = summary.model === 'open';
  return {
    caption,
    detail: corrected
      ? 'latency counts from the intended start (coordinated-omission corrected); service time from the actual start'
      : 'closed model: latency from the actual start',
    root,
    field,
    series: [
      { name: corrected ? 'latency (intended start)' : 'latency', summary: summary.latencyMs },
      { name: 'service time', summary: summary.serviceTimeMs },
    ],
  };
}

/** Request kinds (docs/design.md §2.15) plot like photo upload, their thresholds at `requests.<kind>.latencyMs`. */
function requestKindPlots(kinds: Readonly<Record<string, RequestKindSummary>>): LatencyPlot[] {
  return Object.entries(kinds).map(([name, kind]) => throughputPlot(`${name} latency`, 'requests', `${name}.latencyMs`, kind));
}

function renderPlot(plot: LatencyPlot, thresholds: readonly Pick<ThresholdResult, 'expression'>[]): string {
  const series: PercentileSeries[] = plot.series.map((entry) => ({ name: entry.name, hdr: entry.summary.hdr }));
  const svg = percentileChart({ label: `${plot.caption}, latency by percentile`, series, references: thresholdReferences(thresholds, plot.root, plot.field) });
  const note = plot.series.map((entry) => percentileNote(entry.name, entry.summary)).join(' | ');
  return figure(plot.caption, svg, note, plot.detail);
}

/** Each kind's latency-by-percentile figure, as report.html draws it; the live dashboard draws them over the run so far. */
export function requestKindLatencyFigures(
  kinds: Readonly<Record<string, RequestKindSummary>>,
  thresholds: readonly Pick<ThresholdResult, 'expression'>[],
): string[] {
  return requestKindPlots(kinds).map((plot) => renderPlot(plot, thresholds));
}

export function latencySection(report: Report): string {
  const figures = plots(report).map((plot) => renderPlot(plot, report.thresholds));
  if (figures.length === 0) return section('latency', 'Latency by percentile', '<p class="muted">No scenario measured latency.</p>');
  const intro =
    '<p class="muted">Each curve is read from the run\'s HDR histogram. The x axis gives every "nine" the same width: the right edge is the tail that users feel under load.</p>';
  return section('latency', 'Latency by percentile', intro + grid(figures));
}
