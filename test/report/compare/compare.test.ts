import { describe, expect, it } from 'vitest';
import type { Report } from '../../../src/contract/report.js';
import { percentileMs } from '../../../src/metrics/histogram.js';
import { type CompareOptions, type ComparisonRow, compareReports, judge } from '../../../src/report/compare/compare.js';
import { countsDiffer, proportionsDiffer } from '../../../src/report/compare/compare-noise.js';
import { parseFloors, parseMetricLimits, parseRegressionLimit } from '../../../src/report/compare/regression-limit.js';
import { renderCompareHtml } from '../../../src/report/compare/render-compare-html.js';
import { renderCompareMarkdown } from '../../../src/report/compare/render-compare-markdown.js';
import { renderCompareText } from '../../../src/report/compare/render-compare-text.js';
import { ConfigError } from '../../../src/util/errors.js';
import { makeReport, summaryOf } from '../../support/make-report.js';

const TEN_PERCENT: CompareOptions = { maxRegression: 0.1, perMetric: {} };

const row = (rows: readonly ComparisonRow[], metric: string): ComparisonRow => {
  const found = rows.find((candidate) => candidate.metric === metric);
  if (!found) throw new Error(`no row ${metric}`);
  return found;
};

describe('compareReports', () => {
  const baseline = makeReport({ seed: 1 });

  it('passes clean runs against each other: 30 pairs of independent samples, no false alarm', () => {
    for (let seed = 10; seed < 40; seed += 1) {
      const comparison = compareReports(makeReport({ seed }), makeReport({ seed: seed + 100 }), TEN_PERCENT);
      expect(comparison.regressions.map((r) => r.metric)).toEqual([]);
      expect(comparison.warnings).toEqual([]);
    }
  });

  it('stays sensitive: +2 ms on every target latency is caught at p50 and p90', () => {
    const comparison = compareReports(baseline, makeReport({ seed: 2, latencyShiftMs: 2 }), TEN_PERCENT);
    const flagged = comparison.regressions.map((r) => r.metric);
    expect(flagged).toEqual(expect.arrayContaining(['chatStreams.eventLatencyMs.p50', 'chatStreams.eventLatencyMs.p90', 'tagLink.serviceTimeMs.p50']));
  });

  it('does not judge a max, nor a percentile with fewer than 10 samples beyond it', () => {
    const comparison = compareReports(baseline, makeReport({ seed: 2, latencyShiftMs: 20 }), TEN_PERCENT);
    // 200 open latencies: 2 beyond p99, 0.2 beyond p99.9; 2,000 event latencies: 2 beyond p99.9.
    expect(row(comparison.rows, 'chatStreams.openLatencyMs.p99').status).toBe('few-samples');
    expect(row(comparison.rows, 'chatStreams.eventLatencyMs.p999').status).toBe('few-samples');
    expect(row(comparison.rows, 'chatStreams.eventLatencyMs.p99').status).toBe('regression');
    expect(row(comparison.rows, 'chatStreams.eventLatencyMs.max')).toMatchObject({ status: 'info', limit: null });
  });

  it('knows stream open latency and the intermediary counts: an nginx that holds headers is a regression', () => {
    const direct = makeReport({ seed: 1 });
    const held = makeReport({ seed: 2 });
    if (!direct.scenarios.chatStreams || !held.scenarios.chatStreams) throw new Error('builder must include chatStreams');
    direct.scenarios.chatStreams.openLatencyMs = summaryOf(Array.from({ length: 2_000 }, () => 5));
    held.scenarios.chatStreams.openLatencyMs = summaryOf(Array.from({ length: 2_000 }, () => 1_003));
    direct.scenarios.chatStreams.firstKeepAliveWithHeaders = 0;
    held.scenarios.chatStreams.firstKeepAliveWithHeaders = 1_900;
    const flagged = compareReports(direct, held, TEN_PERCENT).regressions.map((r) => r.metric);
    expect(flagged).toEqual(
      expect.arrayContaining(['chatStreams.openLatencyMs.p50', 'chatStreams.openLatencyMs.p99', 'chatStreams.firstKeepAliveWithHeaders']),
    );
  });

  it('calls a tail change inside the confidence intervals noise, not a regression', () => {
    const base = makeReport({ seed: 1 });
    const cand = makeReport({ seed: 1 });
    if (!base.scenarios.chatStreams || !cand.scenarios.chatStreams) throw new Error('builder must include chatStreams');
    // 1,000 samples at 10 ms; the candidate's top 11 (p99 region) are 14 ms: +40 % at p99 on 10 samples.
    const values = (top: number) => Array.from({ length: 1_000 }, (_, i) => (i >= 989 ? top : 10));
    base.scenarios.chatStreams.eventLatencyMs = summaryOf(values(10));
    cand.scenarios.chatStreams.eventLatencyMs = summaryOf(values(14));
    const p99 = row(compareReports(base, cand, TEN_PERCENT).rows, 'chatStreams.eventLatencyMs.p99');
    expect(p99.relative).toBeGreaterThan(0.1);
    expect(p99.status).toBe('noise');
  });

  it("judges an error rate on its errors and requests (the registry's proportionOf): 2 → 4 of 1,800 is noise, 2 → 40 is not", () => {
    const withErrors = (errors: number): Report => {
      const report = makeReport({ seed: 1 });
      if (!report.scenarios.photoUpload) throw new Error('builder must include photoUpload');
      report.scenarios.photoUpload = { ...report.scenarios.photoUpload, requests: 1_800, errors, errorRate: errors / 1_800 };
      return report;
    };
    const rate = (errors: number) => row(compareReports(withErrors(2), withErrors(errors), TEN_PERCENT).rows, 'photoUpload.errorRate');
    expect(rate(4)).toMatchObject({ status: 'noise' });
    expect(rate(40)).toMatchObject({ status: 'regression' });
  });

  it('flags the regression of a target made 20 ms slower, on every latency it touches', () => {
    const comparison = compareReports(baseline, makeReport({ seed: 2, latencyShiftMs: 20 }), TEN_PERCENT);
    const flagged = new Set(comparison.regressions.map((r) => r.metric));
    for (const metric of ['chatStreams.eventLatencyMs.p50', 'chatStreams.eventLatencyMs.p99', 'photoUpload.latencyMs.p99', 'tagLink.serviceTimeMs.p50']) {
      expect(flagged.has(metric)).toBe(true);
    }
    const p99 = row(comparison.rows, 'chatStreams.eventLatencyMs.p99');
    expect(p99.delta).toBeGreaterThan(15);
    expect(p99.direction).toBe('lower');
    // Gap and first-KEEP_ALIVE figures do not depend on target latency in the builder.
    expect(flagged.has('chatStreams.keepAliveGapMs.p99')).toBe(false);
  });

  it('reads percentiles from the HDR data, not from the rounded summary fields', () => {
    const candidate = makeReport({ seed: 2 });
    const chat = candidate.scenarios.chatStreams;
    if (!chat) throw new Error('builder must include chatStreams');
    // Tampered summary: if compare read it, p99 would regress by 1000x.
    chat.eventLatencyMs = { ...chat.eventLatencyMs, p50: 9_999, p99: 9_999, max: 9_999 };
    const comparison = compareReports(baseline, candidate, TEN_PERCENT);
    const p99 = row(comparison.rows, 'chatStreams.eventLatencyMs.p99');
    expect(p99.candidate).toBe(percentileMs(chat.eventLatencyMs.hdr, 99));
    expect(p99.status).not.toBe('regression');
    expect(row(comparison.rows, 'chatStreams.eventLatencyMs.p90').candidate).toBe(percentileMs(chat.eventLatencyMs.hdr, 90));
  });

  it('ignores a large relative change below the absolute floor (0.2 ms → 0.3 ms)', () => {
    const fast = makeReport({ seed: 1 });
    const slower = makeReport({ seed: 1 });
    if (!fast.scenarios.chatStreams || !slower.scenarios.chatStreams) throw new Error('builder must include chatStreams');
    fast.scenarios.chatStreams.openLatencyMs = summaryOf(Array.from({ length: 100 }, () => 0.2));
    slower.scenarios.chatStreams.openLatencyMs = summaryOf(Array.from({ length: 100 }, () => 0.3));
    const p50 = row(compareReports(fast, slower, TEN_PERCENT).rows, 'chatStreams.openLatencyMs.p50');
    expect(p50.relative).toBeCloseTo(0.5, 2);
    expect(p50.status).toBe('unchanged');
  });

  it("raises the latency floor to the generator's own event-loop delay at that percentile", () => {
    const busy = makeReport({ seed: 2, latencyShiftMs: 5 });
    busy.generator.eventLoopDelayMs = summaryOf(Array.from({ length: 300 }, () => 8));
    const p50 = row(compareReports(baseline, busy, TEN_PERCENT).rows, 'chatStreams.eventLatencyMs.p50');
    expect(p50.delta).toBeGreaterThan(4);
    expect(p50.floor).toBeCloseTo(8, 1);
    expect(p50.status).toBe('unchanged');
    expect(row(compareReports(baseline, makeReport({ seed: 2, latencyShiftMs: 5 }), TEN_PERCENT).rows, 'chatStreams.eventLatencyMs.p50').status).toBe(
      'regression',
    );
  });

  it('judges a drop in throughput (higher is better) as a regression', () => {
    const candidate = makeReport({ seed: 1 });
    if (!candidate.scenarios.tagLink) throw new Error('builder must include tagLink');
    candidate.scenarios.tagLink.throughputPerSec = 40;
    const throughput = row(compareReports(baseline, candidate, TEN_PERCENT).rows, 'tagLink.throughputPerSec');
    expect(throughput).toMatchObject({ status: 'regression', direction: 'higher', delta: -20 });
    expect(throughput.relative).toBeCloseTo(-1 / 3, 9);
  });

  it('applies per-metric limits by longest prefix', () => {
    const candidate = makeReport({ seed: 2, latencyShiftMs: 20 });
    const loose = compareReports(baseline, candidate, {
      maxRegression: 0.1,
      perMetric: { chatStreams: 0.5, 'chatStreams.eventLatencyMs': 100, 'chatStreams.eventLatencyMs.p50': 0 },
    });
    expect(row(loose.rows, 'chatStreams.eventLatencyMs.p99')).toMatchObject({ limit: 100, status: 'unchanged' });
    expect(row(loose.rows, 'chatStreams.eventLatencyMs.p50')).toMatchObject({ limit: 0, status: 'regression' });
    expect(row(loose.rows, 'chatStreams.openLatencyMs.p90').limit).toBe(0.5);
    expect(row(loose.rows, 'photoUpload.latencyMs.p99').limit).toBe(0.1);
  });

  it('raises an absolute floor on request (a noisy runner), never lowers it', () => {
    const candidate = makeReport({ seed: 2, latencyShiftMs: 2 });
    const raised = compareReports(baseline, candidate, { ...TEN_PERCENT, floors: { ms: 5 } });
    expect(row(raised.rows, 'chatStreams.eventLatencyMs.p50')).toMatchObject({ floor: 5, status: 'unchanged' });
    const lowered = compareReports(baseline, candidate, { ...TEN_PERCENT, floors: { ms: 0 } });
    expect(row(lowered.rows, 'chatStreams.eventLatencyMs.p50').floor).toBeGreaterThanOrEqual(1);
  });

  it('refuses unknown per-metric keys and negative limits', () => {
    expect(() => compareReports(baseline, baseline, { maxRegression: 0.1, perMetric: { 'chatStreams.eventLatncyMs': 0.2 } })).toThrow(ConfigError);
    expect(() => compareReports(baseline, baseline, { maxRegression: -0.1, perMetric: {} })).toThrow(/non-negative/);
  });

  it('warns and skips scenarios present on one side only; never judges info metrics', () => {
    const candidate = makeReport({ seed: 1, photoUpload: false });
    candidate.generator.saturated = true;
    const comparison = compareReports(baseline, candidate, TEN_PERCENT);
    expect(comparison.rows.some((r) => r.metric.startsWith('photoUpload.'))).toBe(false);
    expect(comparison.warnings).toContain('photoUpload ran only in the baseline; it is not compared');
    expect(comparison.warnings.some((w) => w.includes('candidate generator was saturated'))).toBe(true);
    expect(row(comparison.rows, 'generator.saturated').status).toBe('regression');
    expect(comparison.rows.filter((r) => r.direction === 'info').every((r) => r.status === 'info' || r.status === 'missing')).toBe(true);
  });
});

describe('judge: zero baselines, floors and noise', () => {
  it.each([
    // metric, unit, direction, baseline, candidate, differs beyond noise, expected status, expected relative
    ['chatStreams.dropped', 'count', 'lower', 0, 0, false, 'unchanged', 0],
    ['chatStreams.dropped', 'count', 'lower', 0, 4, true, 'regression', null],
    ['chatStreams.dropped', 'count', 'lower', 0, 1, false, 'noise', null],
    ['photoUpload.errorRate', 'ratio', 'lower', 0, 0.0005, undefined, 'unchanged', null],
    ['photoUpload.errorRate', 'ratio', 'lower', 0, 0.002, undefined, 'regression', null],
    ['chatStreams.eventLatencyMs.p99', 'ms', 'lower', 100, 80, true, 'improvement', -0.2],
    ['chatStreams.eventLatencyMs.p99', 'ms', 'lower', 100, 80, false, 'noise', -0.2],
    ['chatStreams.eventLatencyMs.p99', 'ms', 'lower', 100, 105, true, 'unchanged', 0.05],
    ['chatStreams.eventLatencyMs.p99', 'ms', 'lower', 0, 0.5, true, 'unchanged', null],
    ['tagLink.throughputPerSec', 'perSec', 'higher', 0, 0, undefined, 'unchanged', 0],
    ['chatStreams.peakConcurrent', 'count', 'info', 100, 10, true, 'info', -0.9],
  ] as const)('%s %s %s: %d → %d (differs: %s) is %s', (metric, unit, direction, baseline, candidate, differs, status, relative) => {
    const result = judge(metric, unit, direction, baseline, candidate, TEN_PERCENT, differs === undefined ? {} : { differs });
    expect(result.status).toBe(status);
    if (relative === null) expect(result.relative).toBeNull();
    else expect(result.relative).toBeCloseTo(relative, 9);
  });

  it('marks a metric with no value on one side as missing, never as a regression', () => {
    expect(judge('chatStreams.eventLatencyMs.p99', 'ms', 'lower', 3, null, TEN_PERCENT).status).toBe('missing');
  });

  it.each([
    [0, 0, false],
    [0, 1, false],
    [0, 3, false],
    [0, 4, true],
    [2, 3, false],
    [100, 150, true],
    [150, 100, true],
  ])('Poisson counts %d vs %d differ: %s', (baseline, candidate, differs) => {
    expect(countsDiffer(baseline, candidate)).toBe(differs);
  });

  it.each([
    [{ events: 2, trials: 1_800 }, { events: 4, trials: 1_800 }, false],
    [{ events: 2, trials: 1_800 }, { events: 40, trials: 1_800 }, true],
    [{ events: 0, trials: 0 }, { events: 4, trials: 1_800 }, false],
  ])('error proportions %j vs %j differ: %s', (baseline, candidate, differs) => {
    expect(proportionsDiffer(baseline, candidate)).toBe(differs);
  });
});

describe('regression limits on the command line', () => {
  it.each([
    ['10%', 0.1],
    ['2.5 %', 0.025],
    ['0.1', 0.1],
    ['1', 1],
    ['0', 0],
  ])('%s -> %d', (text, value) => {
    expect(parseRegressionLimit(text, '--max-regression')).toBeCloseTo(value, 12);
  });

  it.each(['10', 'ten', '-5%', '', '5%%'])('refuses %j', (text) => {
    expect(() => parseRegressionLimit(text, '--max-regression')).toThrow(ConfigError);
  });

  it('parses UNIT=NUMBER floors', () => {
    expect(parseFloors(['ms=5', 'count = 3'], '--floor')).toEqual({ ms: 5, count: 3 });
    expect(() => parseFloors(['latency=5'], '--floor')).toThrow(/UNIT=NUMBER with UNIT one of ms, count/);
    expect(() => parseFloors(['ms=-1'], '--floor')).toThrow(ConfigError);
  });

  it('parses METRIC=LIMIT overrides and checks the metric exists', () => {
    expect(parseMetricLimits(['chatStreams.eventLatencyMs.p99=25%', 'tagLink=0.5'], '--metric-regression')).toEqual({
      'chatStreams.eventLatencyMs.p99': 0.25,
      tagLink: 0.5,
    });
    expect(() => parseMetricLimits(['chatStreams.eventLatencyMs.p99'], '--metric-regression')).toThrow(/METRIC=LIMIT/);
    expect(() => parseMetricLimits(['nope.p99=5%'], '--metric-regression')).toThrow(/unknown metric "nope.p99"/);
  });
});

describe('compare renderers', () => {
  const baseline = makeReport({ seed: 1 });
  const slow = makeReport({ seed: 2, latencyShiftMs: 20 });
  const comparison = compareReports(baseline, slow, TEN_PERCENT);

  it('terminal: aligned table, regressions repeated, verdict last', () => {
    const text = renderCompareText(comparison);
    const lines = text.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^\d+ regressions among \d+ judged metrics \(default limit 10 %\)/);
    expect(text).toMatch(/chatStreams\.eventLatencyMs\.p99 +\d\.\d+ ms +\d+\.\d ms +\+\d+\.\d ms \(\+\d+ %\) +\+10 %, ≥ \d\.\d+ ms +REGRESSION/);
    expect(text).toContain('quiet rows hidden');
    expect(renderCompareText(comparison, { all: true })).not.toContain('quiet rows hidden');
  });

  it('markdown: verdict heading and a regressions table', () => {
    const md = renderCompareMarkdown(comparison);
    expect(md.startsWith('## ❌ coachbench compare: REGRESSION')).toBe(true);
    expect(md).toContain('### Regressions');
    expect(renderCompareMarkdown(compareReports(baseline, makeReport({ seed: 2 }), TEN_PERCENT))).toContain('## ✅ coachbench compare: no regression');
  });

  it('html: self-contained page with baseline/candidate percentile overlays', () => {
    const html = renderCompareHtml(comparison, baseline, slow);
    expect(html).not.toMatch(/<script|<link|src="http/i);
    expect(html.match(/<svg class="chart" data-chart="percentile"/g)?.length).toBeGreaterThanOrEqual(8);
    expect(html).toContain('<tr class="regression"><td>chatStreams.eventLatencyMs.p99</td>');
  });
});
