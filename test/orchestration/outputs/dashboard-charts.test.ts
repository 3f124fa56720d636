/**
 * The live dashboard draws with the HTML report's chart code: for the same intervals, its
 * open-streams and delivery-latency charts are the very figures report.html holds, byte for
 * byte, and its other charts are the report's line charts, empty notes and gaps included;
 * a sample's latency percentiles are the interval point's, as report.json holds them.
 */
import { describe, expect, it } from 'vitest';
import type { TimeseriesPoint } from '../../../src/contract/report.js';
import { recordMs } from '../../../src/metrics/histogram.js';
import { MetricSet } from '../../../src/metrics/metric-set.js';
import { CHAT, throughputNames } from '../../../src/metrics/names.js';
import { pointFromInterval } from '../../../src/metrics/timeseries.js';
import { DASHBOARD_CHART_IDS, dashboardCharts } from '../../../src/orchestration/outputs/dashboard-charts.js';
import { type DashboardSample, dashboardSample } from '../../../src/orchestration/outputs/dashboard-sample.js';
import { renderHtml } from '../../../src/report/render-html.js';
import { makeReport } from '../../support/make-report.js';

/** The `<figure>` of report.html that holds the chart of this kind. */
function reportFigure(html: string, kind: string): string {
  const figures = [...html.matchAll(/<figure>[\s\S]*?<\/figure>/g)].map((match) => match[0]);
  const figure = figures.find((markup) => markup.includes(`data-chart="${kind}"`));
  if (!figure) throw new Error(`report.html has no ${kind} chart`);
  return figure;
}

/** What the dashboard would have kept of these intervals. */
function samplesOf(points: readonly TimeseriesPoint[]): DashboardSample[] {
  return points.map((point) => ({
    tSec: point.tSec,
    streamsOpen: point.streamsOpen,
    mainStreamsOpen: point.mainStreamsOpen,
    plannedParticipants: null,
    plannedStreams: null,
    eventsPerSec: point.eventsPerSec,
    requestsPerSec: point.requestsPerSec,
    eventLatencyMs:
      point.eventLatencyP99Ms === null ? null : { p50: point.eventLatencyP50Ms ?? 0, p90: point.eventLatencyP90Ms ?? 0, p99: point.eventLatencyP99Ms },
    requestLatencyMs: null,
    keepAliveGapMs: null,
    totals: { events: 0, requests: 0, errors: 0, keepAlives: 0 },
    verdict: 'pass',
    checks: [],
    thresholds: [],
  }));
}

const seriesPaths = (markup: string): string[] => [...markup.matchAll(/<path class="series"[^>]* d="([^"]*)"/g)].map((match) => match[1] as string);

describe('the dashboard charts', () => {
  const report = makeReport({ timeseriesPoints: 40 });
  const html = renderHtml(report);
  const charts = dashboardCharts(samplesOf(report.timeseries));

  it('are the report figures, byte for byte, for the same intervals', () => {
    // A null interval first: the lines start at the second point in both.
    expect(report.timeseries[0]?.eventLatencyP99Ms).toBeNull();
    expect(charts['chart-delivery-latency']).toBe(reportFigure(html, 'ts-event-latency'));
    expect(charts['chart-streams']).toBe(reportFigure(html, 'ts-streams'));
    expect(seriesPaths(charts['chart-delivery-latency'])).toHaveLength(3);
  });

  it("draw the live page's own charts with the report's line chart", () => {
    expect(charts['chart-rates']).toMatch(/^<figure><figcaption>Request and event rate[\s\S]*<svg class="chart" data-chart="live-rates"/);
    expect(seriesPaths(charts['chart-rates'])).toHaveLength(2);
    // The x axis is run time in the report's labels.
    expect(charts['chart-rates']).toContain('>Run time</text>');
    expect(charts['chart-rates']).toMatch(/>\d+s<\/text>/);
    // Nothing measured: the report's empty-chart note, not an empty plot.
    expect(charts['chart-keepalive']).toContain('data-empty="true"');
  });

  it('break a line where an interval measured nothing, as the report does', () => {
    const samples = samplesOf(report.timeseries.slice(1, 7));
    const withHole = samples.map((sample, i) => ({ ...sample, keepAliveGapMs: i === 3 ? null : { p50: 1_000, p90: 1_001, p99: 1_002 + i } }));
    const [p50] = seriesPaths(dashboardCharts(withHole)['chart-keepalive']);
    expect(p50?.match(/M/g)).toHaveLength(2);
  });

  it('start as the empty note in every slot, and draw the plan beside the open streams', () => {
    const empty = dashboardCharts([]);
    expect(Object.keys(empty)).toEqual([...DASHBOARD_CHART_IDS]);
    for (const id of DASHBOARD_CHART_IDS) expect(empty[id]).toContain('data-empty="true"');
    const planned = samplesOf(report.timeseries).map((sample) => ({ ...sample, plannedParticipants: 50 }));
    const streams = dashboardCharts(planned)['chart-streams'];
    expect(seriesPaths(streams)).toHaveLength(3);
    expect(streams).toContain('planned (participants)</span>');
  });
});

describe('a dashboard sample', () => {
  it("holds the interval point's latency percentiles: the slower request scenario's, as report.json's time series", () => {
    const interval = new MetricSet();
    // Uploads answer in 10 ms, tag links in 100 ms: pooled, their p50 would be an upload's.
    for (let i = 0; i < 90; i++) recordMs(interval.histogram(throughputNames('photoUpload').latencyUs), 10);
    for (let i = 0; i < 10; i++) recordMs(interval.histogram(throughputNames('tagLink').latencyUs), 100);
    for (let i = 0; i < 10; i++) recordMs(interval.histogram(CHAT.eventLatencyUs), 5 + i);
    const point = pointFromInterval(interval, 1, 1);
    const sample = dashboardSample(
      { point, interval, total: interval, verdict: () => ({ verdict: 'pass', checks: [], thresholds: [] }) },
      { events: 0, requests: 0, errors: 0 },
    );
    expect(sample.requestLatencyMs).toEqual({ p50: point.requestLatencyP50Ms, p90: point.requestLatencyP90Ms, p99: point.requestLatencyP99Ms });
    expect(sample.requestLatencyMs?.p50).toBeCloseTo(100, 0);
    expect(sample.eventLatencyMs).toEqual({ p50: point.eventLatencyP50Ms, p90: point.eventLatencyP90Ms, p99: point.eventLatencyP99Ms });
    expect(sample.keepAliveGapMs).toBeNull();
  });
});
