import { describe, expect, it } from 'vitest';
import { percentileMs } from '../../src/metrics/histogram.js';
import { statPercentile } from '../../src/metrics/metric-catalog.js';
import { evaluateThresholds, parseThreshold, parseThresholds } from '../../src/metrics/thresholds.js';
import { ConfigError } from '../../src/util/errors.js';
import { makeReport } from '../support/make-report.js';

describe('parseThreshold: valid expressions', () => {
  it.each([
    ['chatStreams.eventLatencyMs.p99 < 250', 'chatStreams.eventLatencyMs.p99', '<', 250, 'ms'],
    ['chatStreams.keepAliveGapMs.max <= 16500', 'chatStreams.keepAliveGapMs.max', '<=', 16_500, 'ms'],
    ['chatStreams.keepAliveGapMs.max<=16.5s', 'chatStreams.keepAliveGapMs.max', '<=', 16_500, 'ms'],
    ['chatStreams.eventLatencyMs.p99 < 250 ms', 'chatStreams.eventLatencyMs.p99', '<', 250, 'ms'],
    ['photoUpload.errorRate < 0.001', 'photoUpload.errorRate', '<', 0.001, 'ratio'],
    ['photoUpload.errorRate < 0.1%', 'photoUpload.errorRate', '<', 0.001, 'ratio'],
    ['tagLink.throughputPerSec >= 200', 'tagLink.throughputPerSec', '>=', 200, 'perSec'],
    ['generator.cpuPercent < 80%', 'generator.cpuPercent', '<', 80, 'percent'],
    ['generator.peakRssBytes < 1.5GiB', 'generator.peakRssBytes', '<', 1.5 * 1_073_741_824, 'bytes'],
    ['  chatStreams.dropped == 0  ', 'chatStreams.dropped', '==', 0, 'count'],
    ['chatStreams.duplicates != 1e2', 'chatStreams.duplicates', '!=', 100, 'count'],
    ['chatStreams.openLatencyMs.p95 > 500us', 'chatStreams.openLatencyMs.p95', '>', 0.5, 'ms'],
    ['chatStreams.eventLatencyMs.p9999 < 1m', 'chatStreams.eventLatencyMs.p9999', '<', 60_000, 'ms'],
    ['chatStreams.mainStreams.dropped == 0', 'chatStreams.mainStreams.dropped', '==', 0, 'count'],
    ['photoUpload.statusCodes.503 < 5', 'photoUpload.statusCodes.503', '<', 5, 'count'],
    ['tagLink.errorsByKind.net:ECONNRESET == 0', 'tagLink.errorsByKind.net:ECONNRESET', '==', 0, 'count'],
    ['chatStreams.eventLatencyMs.count >= 1000', 'chatStreams.eventLatencyMs.count', '>=', 1_000, 'count'],
    ['generator.saturated == 0', 'generator.saturated', '==', 0, 'flag'],
    ['auth.refreshFailures == 0', 'auth.refreshFailures', '==', 0, 'count'],
    ['auth.refreshMs.p99 < 2s', 'auth.refreshMs.p99', '<', 2_000, 'ms'],
  ] as const)('%s', (expression, path, op, limit, unit) => {
    const parsed = parseThreshold(expression, '--threshold');
    expect(parsed.metric.path).toBe(path);
    expect(parsed.op).toBe(op);
    expect(parsed.limit).toBeCloseTo(limit, 9);
    expect(parsed.metric.unit).toBe(unit);
    expect(parsed.expression).toBe(expression.trim());
  });
});

describe('parseThreshold: errors name the expression and the 1-based position', () => {
  it.each([
    ['', 1, 'empty expression'],
    ['   ', 4, 'empty expression'],
    [
      'chatStream.eventLatencyMs.p99 < 250',
      1,
      'unknown metric root "chatStream" (did you mean chatStreams? roots: chatStreams, photoUpload, tagLink, generator, auth, requests)',
    ],
    ['latency.p99 < 250', 1, 'unknown metric root "latency" (roots: chatStreams'],
    ['chatStreams.eventLatncyMs.p99 < 250', 13, 'unknown metric "eventLatncyMs" in chatStreams (did you mean eventLatencyMs?)'],
    ['chatStreams.mainStreams.drops < 1', 13, 'unknown metric "mainStreams" in chatStreams (did you mean mainStreams.dropped?)'],
    ['photoUpload.bogus < 1', 13, 'unknown metric "bogus" in photoUpload (known: requests, errors'],
    ['chatStreams.eventLatencyMs < 250', 27, '"eventLatencyMs" needs a statistic'],
    ['chatStreams.eventLatencyMs.p99.9 < 250', 28, '"eventLatencyMs" takes one statistic, not "p99.9" (write 99.9 % as p999'],
    ['chatStreams.events < 5', 19, '"events" needs one key'],
    ['chatStreams.eventLatencyMs.p9x < 250', 28, 'unknown statistic "p9x"'],
    ['chatStreams.eventLatencyMs.p100 < 250', 28, 'unknown statistic "p100"'],
    ['chatStreams.dropped.total < 1', 21, '"dropped" is a number'],
    ['chatStreams..dropped < 1', 13, 'expected a metric path segment, found "."'],
    ['chatStreams.dropped 1', 21, 'expected an operator'],
    ['chatStreams.dropped <> 1', 22, 'expected a number, found ">"'],
    ['chatStreams.dropped =< 1', 21, 'expected an operator'],
    ['chatStreams.dropped <', 22, 'expected a number, found end of expression'],
    ['chatStreams.eventLatencyMs.p99 < 250%', 37, '"%" does not apply to chatStreams.eventLatencyMs.p99 (unit: ms)'],
    ['photoUpload.errorRate < 1ms', 26, '"ms" does not apply to photoUpload.errorRate (unit: ratio)'],
    ['chatStreams.dropped < 3 apples', 25, '"apples" is not a unit'],
    ['chatStreams.dropped < 3parsecs', 24, '"parsecs" is not a unit'],
    ['chatStreams.dropped < 1 && chatStreams.stalled < 1', 25, 'unexpected "&& chatStreams.stalled < 1"'],
    ['chatStreams.dropped < 1; process.exit()', 24, 'unexpected'],
    ['chatStreams.dropped{stage peak} < 1', 20, 'a stage is written {stage:NAME}'],
    ['chatStreams.dropped{phase:peak} < 1', 20, 'a stage is written {stage:NAME}'],
    ['chatStreams.dropped{stage:peak < 1', 20, 'a stage is written {stage:NAME}'],
    ['chatStreams.dropped[1m]{stage:peak} < 1', 24, 'a threshold has a window or a stage, not both'],
  ])('%j fails at %i', (expression, position, message) => {
    let error: unknown;
    try {
      parseThreshold(expression, '--threshold');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = (error as Error).message;
    expect(text).toContain(`threshold "${expression}"`);
    expect(text).toContain('--threshold');
    expect(text).toContain(message);
    expect(text).toMatch(new RegExp(`at position ${position}$`));
    expect(text).not.toContain('\n');
  });
});

describe('parseThreshold: stages', () => {
  it.each([
    ['chatStreams.eventLatencyMs.p99{stage:peak} < 250', 'peak'],
    ['chatStreams.eventLatencyMs.p99 { stage : spike-2 } < 250ms', 'spike-2'],
    ['chatStreams.eventLatencyMs.p99 < 250', null],
  ])('%j judges stage %j', (expression, stage) => {
    const parsed = parseThreshold(expression, '--threshold');
    expect(parsed.stage).toBe(stage);
    expect(parsed.metric.path).toBe('chatStreams.eventLatencyMs.p99');
    expect(parsed.limit).toBe(250);
  });
});

describe('parseThresholds', () => {
  it('collects every problem into one ConfigError', () => {
    expect(() => parseThresholds(['chatStreams.dropped < 1', 'nope.x < 1', 'chatStreams.dropped <'], 'profile.thresholds')).toThrow(
      /profile\.thresholds\[1\].*position 1; profile\.thresholds\[2\].*position 22$/,
    );
  });
});

describe('statPercentile', () => {
  it.each([
    ['p50', 50],
    ['p9', 9],
    ['p999', 99.9],
    ['p9999', 99.99],
    ['p995', 99.5],
    ['p99.5', null],
    ['p100', null],
    ['p990', null],
    ['p0', null],
    ['max', null],
    ['p', null],
  ])('%s -> %s', (stat, expected) => {
    expect(statPercentile(stat)).toBe(expected);
  });
});

describe('evaluateThresholds', () => {
  const report = makeReport();
  const chat = report.scenarios.chatStreams;
  if (!chat) throw new Error('builder must include chatStreams');

  it('passes and fails against the report values', () => {
    const p99 = chat.eventLatencyMs.p99;
    const results = evaluateThresholds(
      [
        `chatStreams.eventLatencyMs.p99 < ${p99 + 0.001}`,
        `chatStreams.eventLatencyMs.p99 < ${p99}`,
        'photoUpload.errorRate < 0.1%',
        'photoUpload.errorRate < 0.2%',
        'tagLink.throughputPerSec >= 60',
        'chatStreams.keepAliveGapMs.max <= 16.5s',
        'generator.saturated == 0',
        'photoUpload.statusCodes.503 == 2',
        'photoUpload.statusCodes.500 == 0',
      ],
      report,
    );
    expect(results.map((result) => result.status)).toEqual(['pass', 'fail', 'fail', 'pass', 'pass', 'pass', 'pass', 'pass', 'pass']);
    expect(results[0]).toEqual({ expression: `chatStreams.eventLatencyMs.p99 < ${p99 + 0.001}`, status: 'pass', observed: p99 });
    expect(results[2]?.observed).toBeCloseTo(2 / 1_800, 12);
  });

  it('computes percentiles outside the summary from the HDR data', () => {
    const [result] = evaluateThresholds(['chatStreams.eventLatencyMs.p95 < 1000'], report);
    expect(result?.observed).toBe(percentileMs(chat.eventLatencyMs.hdr, 95));
    expect(result?.observed).toBeGreaterThan(chat.eventLatencyMs.p90);
    expect(result?.observed).toBeLessThan(chat.eventLatencyMs.p99);
  });

  it('fails with observed null when the scenario is off or the histogram is empty', () => {
    const off = makeReport({ photoUpload: false });
    expect(evaluateThresholds(['photoUpload.errorRate < 1'], off)).toEqual([{ expression: 'photoUpload.errorRate < 1', status: 'fail', observed: null }]);
    const empty = makeReport();
    const emptyChat = empty.scenarios.chatStreams;
    if (!emptyChat) throw new Error('builder must include chatStreams');
    emptyChat.eventLatencyMs = { count: 0, min: 0, mean: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0, hdr: '' };
    const [p99, count] = evaluateThresholds(['chatStreams.eventLatencyMs.p99 < 250', 'chatStreams.eventLatencyMs.count == 0'], empty);
    expect(p99).toEqual({ expression: 'chatStreams.eventLatencyMs.p99 < 250', status: 'fail', observed: null });
    expect(count?.status).toBe('pass');
  });

  it('throws ConfigError (exit 2) on an expression that does not parse', () => {
    expect(() => evaluateThresholds(['chatStreams.dropped <'], report)).toThrow(ConfigError);
  });

  it('reads token renewal from auth, and a run that renewed nothing as zero renewals without a latency', () => {
    const expressions = ['auth.refreshFailures == 0', 'auth.rejectedAfterRefresh < 1', 'auth.refreshes >= 3', 'auth.refreshMs.p99 < 500'];
    const renewed = makeReport();
    renewed.auth = {
      refreshes: 4,
      refreshMs: { count: 4, min: 110, mean: 180, p50: 150, p90: 300, p99: 410, p999: 410, max: 410, hdr: '' },
      refreshFailures: 1,
      waited: 9,
      resent: 9,
      staleAnswers: 0,
      rejectedAfterRefresh: 0,
      fixturesReloads: 0,
      fixturesReloadFailures: 0,
    };
    expect(evaluateThresholds(expressions, renewed).map((r) => [r.status, r.observed])).toEqual([
      ['fail', 1],
      ['pass', 0],
      ['pass', 4],
      ['pass', 410],
    ]);
    const none = makeReport();
    delete none.auth;
    expect(evaluateThresholds(expressions, none).map((r) => [r.status, r.observed])).toEqual([
      ['pass', 0],
      ['pass', 0],
      ['fail', 0],
      ['fail', null],
    ]);
  });
});
