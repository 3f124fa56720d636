/**
 * The live dashboard's five charts over the samples it keeps, drawn on the server by the
 * HTML report's own chart code (report/html/section-timeseries.ts over report/svg/): the
 * open-streams and delivery-latency charts are the report's, the other three are built
 * the same way from what only the live page shows. Each is a whole `<figure>`, caption
 * included, whose every string the report's builders escape.
 */

import { PLANNED_PARTICIPANTS } from '../../report/html/planned-series.js';
import { deliveryLatencyChart, latencyBands, openStreamsChart, renderTimeChart, series, type TimeChart } from '../../report/html/section-timeseries.js';
import type { LineSeries } from '../../report/svg/line-chart.js';
import type { DashboardSample, Percentiles } from './dashboard-sample.js';

/** The page's chart slots (dashboard-page.ts), in the order it shows them. */
export const DASHBOARD_CHART_IDS = ['chart-streams', 'chart-rates', 'chart-request-latency', 'chart-delivery-latency', 'chart-keepalive'] as const;

export type DashboardChartId = (typeof DASHBOARD_CHART_IDS)[number];

type PercentileKey = 'eventLatencyMs' | 'requestLatencyMs' | 'keepAliveGapMs';

const bands = (key: PercentileKey): [(s: DashboardSample) => number | null, (s: DashboardSample) => number | null, (s: DashboardSample) => number | null] => {
  const at = (p: keyof Percentiles) => (sample: DashboardSample) => sample[key]?.[p] ?? null;
  return [at('p50'), at('p90'), at('p99')];
};

/** The plan sampled at each interval, as the report names its line; none when the session planned no population. */
function plannedLine(samples: readonly DashboardSample[]): LineSeries | null {
  if (!samples.some((sample) => sample.plannedParticipants !== null)) return null;
  return series(samples, PLANNED_PARTICIPANTS, (sample) => sample.plannedParticipants);
}

function charts(samples: readonly DashboardSample[]): Record<DashboardChartId, TimeChart> {
  return {
    'chart-streams': openStreamsChart(samples, plannedLine(samples)),
    'chart-rates': {
      kind: 'live-rates',
      caption: 'Request and event rate',
      detail: 'HTTP requests and stream events per second in each interval',
      yTitle: 'Per second',
      series: [series(samples, 'requests/s', (s) => s.requestsPerSec), series(samples, 'events/s', (s) => s.eventsPerSec)],
    },
    'chart-request-latency': {
      kind: 'live-request-latency',
      caption: 'Request latency per interval',
      detail: 'p50 / p90 / p99 of photo uploads and tag links together in each interval; gaps mean no requests',
      yTitle: 'Latency (ms)',
      series: latencyBands(samples, 'request', bands('requestLatencyMs')),
    },
    'chart-delivery-latency': deliveryLatencyChart(samples, bands('eventLatencyMs')),
    'chart-keepalive': {
      kind: 'live-keepalive-gap',
      caption: 'KEEP_ALIVE gap per interval',
      detail: 'p50 / p90 / p99 of the gaps between KEEP_ALIVEs in each interval; gaps mean none arrived',
      yTitle: 'Gap (ms)',
      series: latencyBands(samples, 'gap', bands('keepAliveGapMs')),
    },
  };
}

/** Each slot's figure markup for these samples (with none, each chart says it has no data yet). */
export function dashboardCharts(samples: readonly DashboardSample[]): Record<DashboardChartId, string> {
  const specs = charts(samples);
  return Object.fromEntries(DASHBOARD_CHART_IDS.map((id) => [id, renderTimeChart(specs[id])])) as Record<DashboardChartId, string>;
}
