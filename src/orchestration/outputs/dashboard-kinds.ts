/**
 * The live dashboard's request kinds (docs/design.md §2.15): each kind's rate, errors and
 * latency per interval, charted with the report's time-chart code, then the report's own
 * kinds table and latency-by-percentile figures over the run so far. One section of markup,
 * empty when the profile has no kinds; every string in it is escaped by the report's builders.
 */
import type { RequestsSettings } from '../../contract/profile/profile.js';
import type { RequestKindSummary, ThresholdResult } from '../../contract/report.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import { requestKindKey, throughputNames } from '../../metrics/names.js';
import { buildRequestsSummary } from '../../metrics/throughput-summary.js';
import { grid, section } from '../../report/html/parts.js';
import { requestKindLatencyFigures } from '../../report/html/section-latency.js';
import { requestKindsTable } from '../../report/html/section-scenarios.js';
import { renderTimeChart, series, type TimeChart } from '../../report/html/section-timeseries.js';

/** The slot of the page (dashboard-page.ts) the kinds section is drawn in. */
export const KINDS_SLOT_ID = 'live-request-kinds';

/** One kind in one interval. */
export interface KindPoint {
  requestsPerSec: number;
  errorsPerSec: number;
  /** p99 of its latency in the interval, in ms; null when none was measured in it. */
  latencyP99Ms: number | null;
}

const round3 = (value: number): number => Math.round(value * 1_000) / 1_000;

/** The kinds that run: a kind switched off is neither planned nor reported, so not shown. */
export const shownKinds = (settings: RequestsSettings | undefined): string[] => (settings?.kinds ?? []).filter((kind) => kind.enabled).map((kind) => kind.name);

/** Each kind's figures of one interval (`intervalSec` long). */
export function kindPoints(interval: MetricSet, intervalSec: number, kinds: readonly string[]): Record<string, KindPoint> {
  const perSec = (count: number): number => (intervalSec > 0 ? round3(count / intervalSec) : count);
  const out: Record<string, KindPoint> = {};
  for (const name of kinds) {
    const names = throughputNames(requestKindKey(name));
    const latency = interval.hasHistogram(names.latencyUs) ? interval.histogram(names.latencyUs) : null;
    out[name] = {
      requestsPerSec: perSec(interval.count(names.requests)),
      errorsPerSec: perSec(interval.count(names.errors)),
      latencyP99Ms: latency && latency.totalCount > 0 ? round3(Math.min(latency.getValueAtPercentile(99), latency.maxValue) / 1_000) : null,
    };
  }
  return out;
}

/** The kinds' summaries over the run so far, as report.json `scenarios.requests` would hold them. */
export const kindSummaries = (total: MetricSet, settings: RequestsSettings): Record<string, RequestKindSummary> => buildRequestsSummary(total, settings);

type KindSamples = readonly { tSec: number; requestKinds?: Record<string, KindPoint> }[];

function kindCharts(samples: KindSamples, kinds: readonly string[]): TimeChart[] {
  const perKind = (pick: (point: KindPoint) => number | null) =>
    kinds.map((name) =>
      series(samples, name, (sample) => {
        const point = sample.requestKinds?.[name];
        return point ? pick(point) : null;
      }),
    );
  return [
    {
      kind: 'live-kind-rates',
      caption: 'Request kinds: requests per second',
      detail: 'each kind in each interval',
      yTitle: 'Requests/s',
      series: perKind((point) => point.requestsPerSec),
    },
    {
      kind: 'live-kind-errors',
      caption: 'Request kinds: errors per second',
      detail: 'failed requests of each kind in each interval, any failure code',
      yTitle: 'Errors/s',
      series: perKind((point) => point.errorsPerSec),
    },
    {
      kind: 'live-kind-latency',
      caption: 'Request kinds: latency p99 per interval',
      detail: 'from the intended start in the open model; gaps mean no requests of that kind',
      yTitle: 'Latency (ms)',
      series: perKind((point) => point.latencyP99Ms),
    },
  ];
}

/**
 * The section for these samples and summaries: the charts over the samples kept, then the
 * report's kinds table and each kind's latency by percentile (threshold lines included).
 * Empty without kinds.
 */
export function dashboardKinds(
  samples: KindSamples,
  summaries: Readonly<Record<string, RequestKindSummary>> | null,
  thresholds: readonly Pick<ThresholdResult, 'expression'>[],
): string {
  const kinds = Object.keys(summaries ?? {});
  if (summaries === null || kinds.length === 0) return '';
  const body = [
    grid(kindCharts(samples, kinds).map(renderTimeChart)),
    '<h3>The run so far</h3>',
    requestKindsTable(summaries),
    grid(requestKindLatencyFigures(summaries, thresholds)),
  ].join('');
  return section('request-kinds', 'Request kinds', body);
}
