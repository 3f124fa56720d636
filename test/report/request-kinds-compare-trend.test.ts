/**
 * Request kinds (docs/design.md §2.15) in compare and trend: a kind both runs had is compared
 * field by field as a throughput scenario, and a trend follows each kind's latency and error
 * rate, finding the night its latency rose. The kinds' summaries come from real HDR
 * histograms of seeded samples, built by the report's own summary builder.
 */
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import { recordMs } from '../../src/metrics/histogram.js';
import { MetricSet } from '../../src/metrics/metric-set.js';
import { throughputNames } from '../../src/metrics/names.js';
import { buildRequestsSummary } from '../../src/metrics/throughput-summary.js';
import { compareReports } from '../../src/report/compare/compare.js';
import { buildTrend } from '../../src/report/trend/build-trend.js';
import { seededRandom } from '../../src/util/seeded-random.js';
import { makeReport } from '../support/make-report.js';
import { loadProfileText } from '../support/profile-text.js';
import { entries, night } from '../support/report-history.js';
import { SETTINGS } from '../support/synthetic-history.js';

const PROFILE = loadProfileText({
  name: 'kinds',
  duration: '30s',
  chatStreams: { enabled: false },
  requests: { ratePerSec: 100, kinds: [{ name: 'getSession', method: 'GET', path: '/participants/{userId}/chat_sessions/{sessionId}' }] },
});

/** `report` with a getSession kind of 3,000 answers around 20 ms (+ `shiftMs`), 3 of them 500s. */
function withKind(report: Report, seed: number, shiftMs = 0): Report {
  const total = new MetricSet();
  const names = throughputNames('requests.getSession');
  const random = seededRandom(seed);
  for (let i = 0; i < 3_000; i++) {
    const ms = 15 + 10 * random() + shiftMs;
    recordMs(total.histogram(names.latencyUs), ms);
    recordMs(total.histogram(names.serviceTimeUs), ms);
  }
  total.inc(names.requests, 3_000);
  total.inc(names.errors, 3);
  total.inc(names.errorKind('status:500'), 3);
  total.inc(names.status(200), 2_997);
  total.inc(names.status(500), 3);
  total.peak(names.activeMs, 30_000);
  report.scenarios.requests = buildRequestsSummary(total, PROFILE.requests!);
  return report;
}

describe('request kinds in compare', () => {
  const options = { maxRegression: 0.1, perMetric: {} };

  it('judges a kind both runs had, field by field: its latency rose, its error rate did not move', () => {
    const comparison = compareReports(withKind(makeReport({ seed: 1 }), 1), withKind(makeReport({ seed: 2 }), 2, 20), options);
    const row = (metric: string) => comparison.rows.find((one) => one.metric === metric);
    expect(row('requests.getSession.latencyMs.p99')?.status).toBe('regression');
    expect(row('requests.getSession.latencyMs.p50')?.status).toBe('regression');
    expect(row('requests.getSession.errorRate')?.status).toBe('unchanged');
    expect(row('requests.getSession.errorsByKind.status:500')?.baseline).toBe(3);
    expect(comparison.regressions.map((r) => r.metric)).toContain('requests.getSession.latencyMs.p99');
  });

  it('leaves out a kind only one run had, and accepts a per-kind limit', () => {
    const comparison = compareReports(makeReport({ seed: 1 }), withKind(makeReport({ seed: 2 }), 2, 20), options);
    expect(comparison.rows.some((row) => row.metric.startsWith('requests.'))).toBe(false);
    const relaxed = compareReports(withKind(makeReport({ seed: 1 }), 1), withKind(makeReport({ seed: 2 }), 2, 20), {
      maxRegression: 0.1,
      perMetric: { 'requests.getSession': 5 },
    });
    expect(relaxed.regressions.filter((row) => row.metric.startsWith('requests.'))).toEqual([]);
  });
});

describe('request kinds in trend', () => {
  it('follows each kind of the newest run and finds the night its latency rose', () => {
    const reports = Array.from({ length: 12 }, (_, i) => withKind(night(i + 1), 500 + i, i + 1 >= 9 ? 20 : 0));
    const trend = buildTrend(entries(reports), [], { settings: SETTINGS, generatedAt: new Date('2026-12-01T00:00:00Z') });
    const series = (metric: string) => trend.series.find((one) => one.metric === metric);
    expect(series('requests.getSession.latencyMs.p99')?.changePoints.map((c) => [c.run, c.kind])).toEqual([[9, 'regression']]);
    expect(series('requests.getSession.errorRate')?.changePoints).toEqual([]);
    expect(series('requests.getSession.latencyMs.p50')?.points).toHaveLength(12);
  });
});
