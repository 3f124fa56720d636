import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import { renderHtml } from '../../src/report/render-html.js';
import { makeCapacity, makeReport, summaryOf } from '../support/make-report.js';

/** Every `<svg class="chart" data-chart="KIND" ...>...</svg>` with its kind and markup. */
function charts(html: string): { kind: string; svg: string }[] {
  return [...html.matchAll(/<svg class="chart" data-chart="([^"]+)"[\s\S]*?<\/svg>/g)].map((match) => ({ kind: match[1] as string, svg: match[0] }));
}

/** Each chart with the legend drawn above it (series and reference names live there). */
function chartBoxes(html: string): { svg: string }[] {
  return [...html.matchAll(/<div class="chart-box">[\s\S]*?<\/svg><\/div>/g)].map((match) => ({ svg: match[0] }));
}

/** `d` attributes of the data paths, which must hold real coordinates. */
function seriesPaths(svg: string): string[] {
  return [...svg.matchAll(/<path class="series"[^>]* d="([^"]*)"/g)].map((match) => match[1] as string);
}

const withCapacity = (report: Report, capacity: unknown): Report => Object.assign(report, { capacity });

describe('renderHtml', () => {
  const html = renderHtml(makeReport({ lateKeepAlives: 3, failChecks: ['stream.keepalive.cadence'] }));

  it('is one self-contained document: no script, no external fetch, a CSP that forbids both', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
  });

  it('puts the verdict and the failed items before any section', () => {
    const verdict = html.indexOf('data-verdict="fail"');
    const failed = html.indexOf('id="failed"');
    expect(verdict).toBeGreaterThan(0);
    expect(failed).toBeGreaterThan(verdict);
    expect(failed).toBeLessThan(html.indexOf('<section'));
    expect(html.slice(failed, html.indexOf('</div>', failed))).toContain('stream.keepalive.cadence');
  });

  it('draws a percentile chart for every latency histogram, with data', () => {
    const percentile = charts(html).filter((chart) => chart.kind === 'percentile');
    // event, open, photo (latency + service), tag (latency + service), first KEEP_ALIVE, event loop.
    expect(percentile).toHaveLength(6);
    const seriesCount = percentile.map((chart) => seriesPaths(chart.svg).length);
    expect(seriesCount).toEqual([1, 1, 2, 2, 1, 1]);
    for (const chart of percentile) {
      for (const d of seriesPaths(chart.svg)) expect(d).toMatch(/^M[\d.]+ [\d.]+(L[\d.]+ [\d.]+){40,}/);
      for (const label of ['0%', '90%', '99%', '99.9%']) expect(chart.svg).toContain(`>${label}</text>`);
      expect(chart.svg).toMatch(/>Latency \((ms|s)\)</);
    }
  });

  it('draws every time series with one point per interval', () => {
    const kinds = charts(html).map((chart) => chart.kind);
    for (const kind of ['ts-streams', 'ts-events', 'ts-requests', 'ts-errors', 'ts-event-latency', 'ts-request-latency', 'ts-event-loop', 'ts-rss']) {
      expect(kinds).toContain(kind);
    }
    const streams = charts(html).find((chart) => chart.kind === 'ts-streams');
    const [first] = seriesPaths(streams?.svg ?? '');
    expect(first?.match(/[ML]/g)?.length).toBe(30);
    // p50, p90 and p99 of delivery; each starts with a null interval, so its line starts at the second point.
    const delivery = charts(html).find((chart) => chart.kind === 'ts-event-latency');
    expect(seriesPaths(delivery?.svg ?? '').map((d) => d.match(/[ML]/g)?.length)).toEqual([29, 29, 29]);
    expect(delivery?.svg).not.toContain('class="shade"');
  });

  it('draws latency bands p50 / p90 / p99, and only the p99 for a report from before 1.2.0', () => {
    const request = charts(html).find((chart) => chart.kind === 'ts-request-latency');
    expect(seriesPaths(request?.svg ?? '')).toHaveLength(3);
    expect(html).toMatch(/request p50<\/span>.*request p90<\/span>.*request p99<\/span>/s);
    const old = makeReport();
    old.timeseries = old.timeseries.map(({ eventLatencyP50Ms, eventLatencyP90Ms, requestLatencyP50Ms, requestLatencyP90Ms, ...point }) => point);
    const oldCharts = charts(renderHtml(old));
    expect(seriesPaths(oldCharts.find((chart) => chart.kind === 'ts-event-latency')?.svg ?? '')).toHaveLength(1);
    expect(seriesPaths(oldCharts.find((chart) => chart.kind === 'ts-request-latency')?.svg ?? '')).toHaveLength(1);
  });

  it('shades the warm-up in every time-series chart', () => {
    const report = makeReport();
    report.timeseries = report.timeseries.map((point) => (point.tSec <= 5 ? { ...point, warmup: true as const } : point));
    const timeCharts = charts(renderHtml(report)).filter((chart) => chart.kind.startsWith('ts-'));
    expect(timeCharts.length).toBeGreaterThanOrEqual(6);
    for (const chart of timeCharts) {
      const shade = /<rect class="shade" data-shade="warm-up \(ignored by thresholds\)" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"/.exec(chart.svg);
      expect(shade, chart.kind).not.toBeNull();
      // The plot's x axis runs from the first point (1 s) to the last (30 s) over 544 px: the warm-up ends at 5 s.
      expect(Number(shade?.[1])).toBe(72);
      expect(Number(shade?.[2])).toBeCloseTo((544 * 4) / 29, 0);
    }
  });

  it('shades in red, in every time-series chart, each run of intervals the driver fell behind in, and says why', () => {
    const report = makeReport();
    const behindAt = new Set([3, 4, 20]);
    report.timeseries = report.timeseries.map((point) => (behindAt.has(point.tSec) ? { ...point, generatorBehind: true as const } : point));
    report.generator = { ...report.generator, saturated: true, behind: { intervals: 3, seconds: 3, share: 0.1, maxShare: 0.01 } };
    const page = renderHtml(report);
    const timeCharts = charts(page).filter((chart) => chart.kind.startsWith('ts-'));
    expect(timeCharts.length).toBeGreaterThanOrEqual(6);
    for (const chart of timeCharts) {
      const shades = [
        ...chart.svg.matchAll(
          /<rect class="shade" data-shade="driver behind \(latencies include its lag\)" x="([\d.]+)"[^>]*width="([\d.]+)"[^>]*fill="#d62728"/g,
        ),
      ];
      // Two stretches: 2-4 s and 19-20 s; one legend entry for both.
      expect(shades, chart.kind).toHaveLength(2);
      expect(Number(shades[0]?.[2])).toBeCloseTo((544 * 2) / 29, 0);
      expect(chart.svg.split('driver behind (latencies include its lag)</span>').length - 1, chart.kind).toBeLessThanOrEqual(1);
    }
    expect(page).toContain('3 intervals are shaded red: a driver process fell behind there');
    expect(page).toContain('The generator fell behind</strong> in the intervals shaded red');
    expect(page).toMatch(/Fell behind<\/dt><dd>3 intervals, 3 s \(10[.0]* ?% of the judged run; at most 1[.0]* ?%\)/);
  });

  it('marks the KEEP_ALIVE expected interval and tolerance band, and the late gaps', () => {
    const gaps = charts(html).find((chart) => chart.kind === 'keepalive-gaps');
    expect(gaps).toBeDefined();
    const svg = gaps?.svg ?? '';
    expect(svg).toContain('class="band"');
    expect(svg).toContain('class="reference"');
    const bars = [...svg.matchAll(/<rect class="bar" data-count="(\d+)"[^>]*fill="([^"]+)"/g)];
    const total = bars.reduce((sum, bar) => sum + Number(bar[1]), 0);
    expect(total).toBe(1_203);
    const outside = bars.filter((bar) => bar[2] === '#D55E00').reduce((sum, bar) => sum + Number(bar[1]), 0);
    expect(outside).toBe(3);
    expect(html).toContain('tolerance ±1.5 s');
    expect(html).toContain('expected 15 s');
  });

  it('draws each bound of the first KEEP_ALIVE over the curve it is judged on: late from the headers, early from the request', () => {
    const report = makeReport();
    const chat = report.scenarios.chatStreams!;
    chat.firstKeepAliveFromRequestMs = summaryOf(Array.from({ length: 200 }, (_, i) => 15_004 + i / 10));
    chat.firstKeepAliveWithHeaders = 7;
    const page = renderHtml(report);
    const first = chartBoxes(page).find((chart) => chart.svg.includes('request → first KEEP_ALIVE'));
    expect(first?.svg).toContain('headers → first KEEP_ALIVE');
    expect(first?.svg.match(/<line class="reference"/g)).toHaveLength(2);
    expect(first?.svg).toContain('late after 16,500 ms (from the headers)');
    expect(first?.svg).toContain('early before 13,500 ms (from the request)');
    expect(page).toContain('7 with the headers (held by an intermediary?)');
    // A report from before the request curve: the headers curve and the late bound alone.
    delete chat.firstKeepAliveFromRequestMs;
    const old = chartBoxes(renderHtml(report)).find((chart) => chart.svg.includes('headers → first KEEP_ALIVE'));
    expect(old?.svg.match(/<line class="reference"/g)).toHaveLength(1);
    expect(old?.svg).not.toContain('early before');
  });

  it('escapes a hostile string everywhere it can appear', () => {
    const hostile = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
    const page = renderHtml(makeReport({ hostile, failChecks: ['stream.event.schema'] }));
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<img');
    expect(page).not.toMatch(/<[a-z]+ [^>]*onerror=/i);
    expect(page).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    // Title, failure list, event keys, samples, warnings, faults, profile JSON: all escaped.
    expect(page.split('&lt;script&gt;').length - 1).toBeGreaterThanOrEqual(7);
  });

  it('leaves off sections of scenarios that did not run, and says so in the table', () => {
    const page = renderHtml(makeReport({ chatStreams: false }));
    const kinds = charts(page).map((chart) => chart.kind);
    expect(kinds).not.toContain('keepalive-gaps');
    expect(kinds.filter((kind) => kind === 'percentile')).toHaveLength(3);
    expect(page).toMatch(/<td>Chat streams<\/td><td>off<\/td>/);
  });

  it('shows token renewal when the run renewed tokens, and says when renewal failed', () => {
    expect(html).not.toContain('<section id="auth">');
    const renewed = makeReport();
    renewed.auth = {
      refreshes: 3,
      refreshMs: summaryOf([120, 140, 900]),
      refreshFailures: 0,
      waited: 12,
      resent: 12,
      staleAnswers: 2,
      rejectedAfterRefresh: 0,
      fixturesReloads: 0,
      fixturesReloadFailures: 0,
    };
    const page = renderHtml(renewed);
    expect(page).toContain('<a href="#auth">Tokens</a>');
    const section = /<section id="auth">[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';
    expect(section).toContain('<dt>Sent again with a renewed token</dt><dd>12</dd>');
    expect(section).toMatch(/<dt>Token command time<\/dt><dd>p50 [^<]*ms, p99 [^<]*ms, max [^<]*ms<\/dd>/);
    expect(section).toContain('Expired tokens were renewed');
    renewed.auth.rejectedAfterRefresh = 4;
    expect(renderHtml(renewed)).toContain('<strong>Token renewal failed</strong>');
  });

  it('says "No samples recorded." instead of drawing an empty histogram', () => {
    const report = makeReport();
    if (!report.scenarios.chatStreams) throw new Error('builder must include chatStreams');
    report.scenarios.chatStreams.openLatencyMs = summaryOf([]);
    expect(renderHtml(report)).toContain(
      'data-empty="true" role="note" aria-label="Chat stream open latency, latency by percentile">No samples recorded.</div>',
    );
  });

  it('draws each capacity SLO against load, marks the knee, and ignores a malformed block', () => {
    const page = renderHtml(withCapacity(makeReport(), makeCapacity()));
    const capacityCharts = charts(page).filter((entry) => entry.kind === 'capacity');
    expect(capacityCharts).toHaveLength(2);
    for (const chart of capacityCharts) expect(seriesPaths(chart.svg)[0]?.match(/[ML]/g)?.length).toBe(5);
    expect(page).toContain('Highest load that held every SLO: 3,500 participants.');
    expect(page).toContain('First failing load: 4,000 participants.');
    expect(page).toContain('SLO &lt; 100 ms');
    expect(page).toContain('3,500 (knee)');
    const table = page.slice(page.indexOf('<table class="capacity">'));
    expect(table.match(/<span class="badge fail">FAIL<\/span>/g)?.length).toBe(1);
    const withoutSteps = { ...makeCapacity(), steps: [] };
    const wrongStep = { ...makeCapacity(), steps: [{ load: 'many', pass: true, values: {}, failedChecks: [], reportDir: 'x' }] };
    for (const bad of [withoutSteps, wrongStep, { metric: 'x', points: [] }, 'fast', [1, 2]]) {
      expect(renderHtml(withCapacity(makeReport(), bad))).not.toContain('id="capacity"');
    }
  });

  it('is deterministic', () => {
    expect(renderHtml(makeReport())).toBe(renderHtml(makeReport()));
  });
});

describe('the planned shape', () => {
  const staged = (): Report => {
    const report = makeReport();
    report.plan = {
      durationMs: 30_000,
      windows: [],
      scenarios: [
        {
          scenario: 'chatStreams',
          unit: 'participants',
          explicit: true,
          stages: [
            { name: 'up', named: true, startMs: 0, endMs: 10_000, from: 0, to: 300 },
            { name: 'spike', named: true, startMs: 10_000, endMs: 10_000, from: 300, to: 600 },
            { name: 'hold', named: true, startMs: 10_000, endMs: 30_000, from: 600, to: 600 },
          ],
        },
        { scenario: 'photoUpload', unit: 'requests/s', explicit: true, stages: [{ name: 'p', named: true, startMs: 0, endMs: 30_000, from: 10, to: 10 }] },
        { scenario: 'tagLink', unit: 'requests/s', explicit: false, stages: [{ name: 'rate', named: false, startMs: 0, endMs: 30_000, from: 5, to: 20 }] },
      ],
    };
    return report;
  };

  it('is drawn under the achieved streams, corner by corner, a step upright', () => {
    const html = renderHtml(staged());
    const streams = charts(html).find((chart) => chart.kind === 'ts-streams')!;
    const paths = seriesPaths(streams.svg);
    expect(paths).toHaveLength(3);
    // 0s, 10s (300), 10s (600), 30s: four corners.
    expect(paths[2]!.match(/[ML]/g)).toHaveLength(4);
    expect(html).toContain('planned (participants)</span>');
  });

  it('sums the planned rates of photo upload and tag link under the request rate', () => {
    const html = renderHtml(staged());
    const requests = charts(html).find((chart) => chart.kind === 'ts-requests')!;
    expect(seriesPaths(requests.svg)).toHaveLength(2);
    expect(html).toContain('planned requests/s</span>');
  });

  it('is absent from a report without a plan (before 1.3.0)', () => {
    const report = makeReport();
    delete report.plan;
    const streams = charts(renderHtml(report)).find((chart) => chart.kind === 'ts-streams')!;
    expect(seriesPaths(streams.svg)).toHaveLength(2);
  });
});
