/**
 * Sliding windows and the threshold monitor on synthetic intervals: the window sum is exact
 * (it equals the intervals inside it added afresh), windowed thresholds name their first
 * failing window, abortOnFail waits for delayAbortEval, and an empty window is no evidence.
 */
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../src/contract/profile/profile.js';
import { resolveProfile } from '../../src/contract/profile/resolve-profile.js';
import type { AbortInfo } from '../../src/contract/report.js';
import { recordMs } from '../../src/metrics/histogram.js';
import { MetricSet } from '../../src/metrics/metric-set.js';
import { metricView } from '../../src/metrics/metric-view.js';
import { CHAT } from '../../src/metrics/names.js';
import { SlidingWindow } from '../../src/metrics/sliding-window.js';
import { ThresholdMonitor } from '../../src/metrics/threshold-monitor.js';
import { evaluateThresholds, parseThreshold, parseThresholds } from '../../src/metrics/thresholds.js';
import { ConfigError } from '../../src/util/errors.js';

const WINDOW_EXPR = 'chatStreams.eventLatencyMs.p99[5s] < 250';

/** One second of chat traffic whose event latencies are `latencyMs`. */
function second(latencyMs: number[], open = 10): MetricSet {
  const set = new MetricSet();
  set.peak(CHAT.open, open);
  set.inc(CHAT.keepAlives, latencyMs.length);
  for (const ms of latencyMs) recordMs(set.histogram(CHAT.eventLatencyUs), ms);
  return set;
}

const profile: Profile = resolveProfile({ name: 'unit', chatStreams: { participants: 10 } }, 'unit');
const view = (set: MetricSet) => metricView(set, { profile, participants: 10, keepAlive: { intervalMs: 1_000, toleranceMs: 100 }, processes: 1, rssBytes: 0 });

function monitorOf(expressions: string[], aborts: Array<{ expression: string; delayAbortEvalMs: number }> = []) {
  const events: AbortInfo[] = [];
  const monitor = new ThresholdMonitor({ thresholds: parseThresholds(expressions, 'test'), abortOnFail: aborts, view, onAbort: (info) => events.push(info) });
  return { monitor, events };
}

describe('threshold grammar: windows', () => {
  it('reads [duration] after the path', () => {
    expect(parseThreshold('chatStreams.keepAliveGapMs.p99[5m] < 16000', 'x')).toMatchObject({ windowMs: 300_000, op: '<', limit: 16_000 });
    expect(parseThreshold('chatStreams.eventLatencyMs.p99 [ 1m30s ]<=250ms', 'x')).toMatchObject({ windowMs: 90_000, limit: 250 });
    expect(parseThreshold('chatStreams.eventLatencyMs.p99 < 250', 'x').windowMs).toBeNull();
  });

  it.each([
    ['chatStreams.eventLatencyMs.p99[5m < 1', /not closed with "\]" at position 31/],
    ['chatStreams.eventLatencyMs.p99[5] < 1', /"5" is not a window duration \(e\.g\. \[30s\], \[5m\]\) at position 32/],
    ['chatStreams.eventLatencyMs.p99[0s] < 1', /a window must be longer than 0/],
  ])('refuses %s with one line', (expression, message) => {
    expect(() => parseThreshold(expression, 'profile.thresholds[0]')).toThrow(ConfigError);
    expect(() => parseThreshold(expression, 'profile.thresholds[0]')).toThrow(message);
  });
});

describe('SlidingWindow', () => {
  it('holds exactly the intervals of the last window: its sum equals them added afresh', () => {
    const window = new SlidingWindow(3);
    const intervals = [1, 2, 3, 4, 5, 6].map((n) => second([n * 10, n * 10 + 1], n));
    intervals.forEach((set, i) => {
      window.push(set, set.encode(), i, i + 1);
    });
    const fresh = new MetricSet();
    for (const set of intervals.slice(3)) fresh.add(set);
    expect(window.full).toBe(true);
    expect([window.fromSec, window.toSec]).toEqual([3, 6]);
    expect(window.sum.count(CHAT.keepAlives)).toBe(6);
    const histogram = window.sum.histogram(CHAT.eventLatencyUs);
    expect(histogram.totalCount).toBe(6);
    // Min and max follow the intervals that left (to HDR precision, 3 digits), and the peak is the window's own.
    expect(histogram.minNonZeroValue).toBe(fresh.histogram(CHAT.eventLatencyUs).minNonZeroValue);
    expect(histogram.maxValue).toBeGreaterThanOrEqual(61_000);
    expect(histogram.maxValue).toBeLessThan(61_000 * 1.001);
    expect(window.sum.peakOf(CHAT.open)).toBe(6);
  });

  it('is not full until the intervals span its length', () => {
    const window = new SlidingWindow(3);
    window.push(second([1]), second([1]).encode(), 0, 1);
    window.push(second([1]), second([1]).encode(), 1, 2);
    expect(window.full).toBe(false);
    window.push(second([1]), second([1]).encode(), 2, 2.998);
    expect(window.full).toBe(true);
  });
});

describe('ThresholdMonitor', () => {
  const WINDOWED = 'chatStreams.eventLatencyMs.p99[3s] < 100';

  it('names the first failing window while the whole run would still pass', () => {
    const { monitor } = monitorOf([WINDOWED]);
    // One bad second in fifty: 2 % of the run's events.
    const latencies = Array.from({ length: 50 }, (_, i) => (i === 10 ? 500 : 10));
    for (const [i, ms] of latencies.entries()) monitor.ingest(second(Array.from({ length: 20 }, () => ms)), i, i + 1);
    const result = monitor.windowResults().get(WINDOWED)!;
    expect(result.status).toBe('fail');
    // The first window that fails is the first holding the bad second: 8–11 s.
    expect(result.window).toEqual({ fromSec: 8, toSec: 11, evaluated: 48 });
    expect(result.observed).toBeGreaterThan(499);
    // Over the whole run the bad second hides below p97: a window catches what a total dilutes.
    expect(evaluateThresholds(['chatStreams.eventLatencyMs.p97 < 100'], view(monitor.total))).toMatchObject([{ status: 'pass' }]);
  });

  it('a window that holds reports its worst value and passes', () => {
    const { monitor } = monitorOf([WINDOWED]);
    for (const [i, ms] of [10, 20, 90, 30, 20, 10].entries()) monitor.ingest(second([ms, ms]), i, i + 1);
    const result = monitor.windowResults().get(WINDOWED)!;
    expect(result).toMatchObject({ status: 'pass', window: { evaluated: 4 } });
    expect(result.observed).toBeCloseTo(90, 0);
    // The worst window holds the 90 ms second (2–3 s).
    expect(result.window!.fromSec).toBeLessThanOrEqual(2);
    expect(result.window!.toSec).toBeGreaterThanOrEqual(3);
  });

  it('an empty window is no evidence; a run of empty windows fails with observed null', () => {
    const { monitor } = monitorOf([WINDOWED]);
    for (let i = 0; i < 5; i += 1) monitor.ingest(second([]), i, i + 1);
    expect(monitor.windowResults().get(WINDOWED)).toEqual({
      expression: WINDOWED,
      status: 'fail',
      observed: null,
      window: { fromSec: 0, toSec: 0, evaluated: 3 },
    });
  });

  it('a run shorter than the window is judged once, at finish, over what it has', () => {
    const { monitor } = monitorOf([WINDOWED]);
    monitor.ingest(second([500]), 0, 1);
    expect(monitor.windowResults().get(WINDOWED)!.window!.evaluated).toBe(0);
    monitor.finish();
    expect(monitor.windowResults().get(WINDOWED)).toMatchObject({ status: 'fail', window: { fromSec: 0, toSec: 1, evaluated: 1 } });
  });

  it('aborts once, not before delayAbortEval, on windowed and whole-run thresholds alike', () => {
    const { monitor, events } = monitorOf([WINDOWED], [{ expression: WINDOWED, delayAbortEvalMs: 5_000 }]);
    for (let i = 0; i < 8; i += 1) monitor.ingest(second([500]), i, i + 1);
    expect(events).toEqual([{ expression: WINDOWED, atSec: 5, observed: expect.any(Number), window: { fromSec: 2, toSec: 5 } }]);
    expect(monitor.aborted).toEqual(events[0]);

    const whole = monitorOf(['chatStreams.eventLatencyMs.max < 100'], [{ expression: 'chatStreams.eventLatencyMs.max < 100', delayAbortEvalMs: 0 }]);
    whole.monitor.ingest(second([]), 0, 1);
    expect(whole.events).toEqual([]);
    whole.monitor.ingest(second([150]), 1, 2);
    expect(whole.events).toEqual([{ expression: 'chatStreams.eventLatencyMs.max < 100', atSec: 2, observed: expect.any(Number), window: null }]);
  });
});

describe('profile thresholds as objects', () => {
  it('resolve to expressions plus abort rules (k6 names); delayAbortEval alone is refused', () => {
    const resolved = resolveProfile(
      {
        name: 'p',
        warmup: '10s',
        thresholds: [
          'tagLink.errorRate < 0.01',
          { threshold: WINDOW_EXPR, abortOnFail: true, delayAbortEval: '10s' },
          { threshold: 'chatStreams.dropped < 1' },
        ],
      },
      'p.json',
    );
    expect(resolved.thresholds).toEqual(['tagLink.errorRate < 0.01', WINDOW_EXPR, 'chatStreams.dropped < 1']);
    expect(resolved.abortOnFail).toEqual([{ expression: WINDOW_EXPR, delayAbortEvalMs: 10_000 }]);
    expect(resolved.warmupMs).toBe(10_000);
    expect(() => resolveProfile({ name: 'p', thresholds: [{ threshold: WINDOW_EXPR, delayAbortEval: '5s' }] }, 'p.json')).toThrow(
      'p.json: thresholds[0].delayAbortEval: has no effect without "abortOnFail": true',
    );
  });
});
