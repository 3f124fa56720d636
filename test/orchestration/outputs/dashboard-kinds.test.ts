/**
 * The live dashboard's request kinds (docs/design.md §2.15) with the report's code: for the
 * same summaries, its kinds table and each kind's latency-by-percentile figure are the very
 * markup report.html holds, threshold lines included; its per-interval charts draw one line
 * per kind from what each interval measured.
 */
import { describe, expect, it } from 'vitest';
import type { Report } from '../../../src/contract/report.js';
import { recordMs } from '../../../src/metrics/histogram.js';
import { MetricSet } from '../../../src/metrics/metric-set.js';
import { throughputNames } from '../../../src/metrics/names.js';
import { buildRequestsSummary } from '../../../src/metrics/throughput-summary.js';
import { dashboardKinds, kindPoints } from '../../../src/orchestration/outputs/dashboard-kinds.js';
import { renderHtml } from '../../../src/report/render-html.js';
import { twoKindsProfile } from '../../support/kinds-profile.js';
import { makeReport } from '../../support/make-report.js';

const PROFILE = twoKindsProfile('kinds');

/** One interval's or the run's metrics: `count` answers of each kind around `ms`, `errors` of getSession 500s. */
function measured(count: number, ms: number, errors: number): MetricSet {
  const set = new MetricSet();
  for (const [kind, offsetMs] of [
    ['getSession', 0],
    ['searchSessions', 30],
  ] as const) {
    const names = throughputNames(`requests.${kind}`);
    for (let i = 0; i < count; i++) {
      recordMs(set.histogram(names.latencyUs), ms + offsetMs + (i % 10));
      recordMs(set.histogram(names.serviceTimeUs), ms + offsetMs + (i % 10));
    }
    set.inc(names.requests, count);
    set.peak(names.activeMs, 30_000);
  }
  const names = throughputNames('requests.getSession');
  set.inc(names.errors, errors);
  set.inc(names.errorKind('status:500'), errors);
  set.inc(names.status(500), errors);
  set.inc(names.status(200), count - errors);
  set.inc(throughputNames('requests.searchSessions').status(200), count);
  return set;
}

/** `<figure>`s of markup, by caption start. */
const figureOf = (markup: string, caption: string): string | undefined =>
  [...markup.matchAll(/<figure>[\s\S]*?<\/figure>/g)].map((match) => match[0]).find((figure) => figure.startsWith(`<figure><figcaption>${caption}`));

const seriesPaths = (markup: string): string[] => [...markup.matchAll(/<path class="series"[^>]* d="([^"]*)"/g)].map((match) => match[1] as string);

describe("the dashboard's request kinds", () => {
  const summaries = buildRequestsSummary(measured(900, 20, 4), PROFILE.requests!);
  const report: Report = makeReport({
    thresholds: [{ expression: 'requests.getSession.latencyMs.p99 < 300', status: 'pass', observed: 29 }],
  });
  report.scenarios.requests = summaries;
  const html = renderHtml(report);
  const live = dashboardKinds([], summaries, report.thresholds);

  it("show the report's kinds table, byte for byte, for the same summaries", () => {
    const table = /<h3 id="request-kinds">Request kinds<\/h3>(<table>[\s\S]*?<\/table>)/.exec(html)?.[1];
    expect(table).toContain('<td>getSession</td>');
    expect(table).toMatch(/<td>4\s\(0\.444\s%\):\sstatus:500\s4<\/td>/);
    expect(live).toContain(table);
  });

  it("draw each kind's latency by percentile as the report does, threshold line included", () => {
    for (const kind of ['getSession', 'searchSessions']) {
      const figure = figureOf(html, `${kind} latency`);
      expect(figure, kind).toBeDefined();
      expect(figureOf(live, `${kind} latency`)).toBe(figure);
    }
    expect(figureOf(live, 'getSession latency')).toContain('threshold p99 &lt; 300');
  });

  it("chart each kind's rate, errors and p99 per interval, one line per kind", () => {
    const intervals = [measured(20, 10, 0), measured(20, 200, 5), new MetricSet(), measured(20, 12, 0)];
    const kinds = ['getSession', 'searchSessions'];
    const samples = intervals.map((set, i) => ({ tSec: i + 1, requestKinds: kindPoints(set, 1, kinds) }));
    expect(samples[1]?.requestKinds).toEqual({
      getSession: { requestsPerSec: 20, errorsPerSec: 5, latencyP99Ms: expect.closeTo(209, 0) },
      searchSessions: { requestsPerSec: 20, errorsPerSec: 0, latencyP99Ms: expect.closeTo(239, 0) },
    });
    // An interval that measured nothing has no latency: the line breaks there, as the report's do.
    expect(samples[2]?.requestKinds?.getSession).toEqual({ requestsPerSec: 0, errorsPerSec: 0, latencyP99Ms: null });
    const section = dashboardKinds(samples, summaries, []);
    for (const [kind, caption] of [
      ['live-kind-rates', 'Request kinds: requests per second'],
      ['live-kind-errors', 'Request kinds: errors per second'],
      ['live-kind-latency', 'Request kinds: latency p99 per interval'],
    ] as const) {
      const figure = figureOf(section, caption);
      expect(figure, caption).toContain(`data-chart="${kind}"`);
      expect(seriesPaths(figure ?? ''), caption).toHaveLength(2);
      for (const name of kinds) expect(figure).toContain(`${name}</span>`);
    }
    const [latency] = seriesPaths(figureOf(section, 'Request kinds: latency p99') ?? '');
    expect(latency?.match(/M/g)).toHaveLength(2);
  });

  it('are nothing without kinds', () => {
    expect(dashboardKinds([], null, [])).toBe('');
    expect(dashboardKinds([], {}, [])).toBe('');
  });
});
