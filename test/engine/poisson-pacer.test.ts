/**
 * Poisson arrivals (docs/design.md §6), pure: the schedule's gaps fit an exponential
 * distribution (Kolmogorov–Smirnov at 1 %), the mean rate holds, a ramp follows its plan
 * through the time-rescaling theorem, and a seed gives one schedule per process.
 */
import { describe, expect, it } from 'vitest';
import { type ArrivalStream, type SchedulePlan, schedulePacer } from '../../src/engine/arrival-pacer.js';
import type { Pacer } from '../../src/engine/pacer.js';

/** Two-sided KS critical value at α = 1 % for n samples (large-n asymptote). */
const ksCritical = (n: number): number => 1.628 / Math.sqrt(n);

/** The KS statistic D of `samples` against the exponential distribution of mean 1. */
function ksExponential(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  let d = 0;
  sorted.forEach((x, i) => {
    const cdf = 1 - Math.exp(-x);
    d = Math.max(d, (i + 1) / n - cdf, cdf - i / n);
  });
  return d;
}

/** Slot times in seconds, in order. */
const timesOf = (pacer: Pacer, count = pacer.totalSlots): number[] => Array.from({ length: count }, (_, i) => pacer.slotTimeMs(i) / 1_000);

const stream: ArrivalStream = { seed: 1, stream: 0, workload: 'photoUpload' };
const poissonPlan = (plan: Omit<SchedulePlan, 'arrivals'>): SchedulePlan => ({ ...plan, arrivals: 'poisson' });

describe('Poisson pacer: a constant rate', () => {
  // 50/s over 400 s: about 20,000 arrivals, of which the first 10,000 gaps are tested.
  const pacer = schedulePacer(poissonPlan({ stages: null, startRatePerSec: 50, endRatePerSec: 50, durationMs: 400_000 }), stream);
  const n = 10_000;
  const times = timesOf(pacer, n + 1);

  it('has inter-arrival times that fit an exponential distribution (KS test at 1 %, n = 10,000)', () => {
    // Scaled by the rate, the gaps (the first one from 0) are exponential of mean 1.
    const gaps = times.slice(0, n).map((t, i) => (t - (i === 0 ? 0 : times[i - 1]!)) * 50);
    expect(gaps).toHaveLength(n);
    expect(ksExponential(gaps)).toBeLessThan(ksCritical(n));
  });

  it('holds its mean rate within 2 % over 10,000 arrivals, and over the run', () => {
    expect(Math.abs(n / times[n - 1]! / 50 - 1)).toBeLessThan(0.02);
    expect(Math.abs(pacer.totalSlots / 20_000 - 1)).toBeLessThan(0.02);
  });

  it('fails the same KS test for evenly spaced arrivals (the test can tell)', () => {
    const uniform = schedulePacer({ stages: null, startRatePerSec: 50, endRatePerSec: 50, durationMs: 400_000, arrivals: 'uniform' }, stream);
    const even = timesOf(uniform, n + 1);
    const gaps = even.slice(1).map((t, i) => (t - even[i]!) * 50);
    expect(ksExponential(gaps)).toBeGreaterThan(ksCritical(n));
  });
});

describe('Poisson pacer: ramps and stages follow the plan (time rescaling)', () => {
  // Λ(t), the expected arrivals by t (seconds): the rescaled gaps Λ(t_i) − Λ(t_i−1) are exponential of mean 1.
  const cases: Array<{ name: string; plan: Omit<SchedulePlan, 'arrivals'>; cumulative: (t: number) => number; expected: number }> = [
    {
      name: 'a linear ramp 0 -> 200/s over 100 s',
      plan: { stages: null, startRatePerSec: 0, endRatePerSec: 200, durationMs: 100_000 },
      cumulative: (t) => t * t,
      expected: 10_000,
    },
    {
      name: 'a ramp down 150 -> 50/s over 100 s',
      plan: { stages: null, startRatePerSec: 150, endRatePerSec: 50, durationMs: 100_000 },
      cumulative: (t) => 150 * t - (100 * t * t) / 200,
      expected: 10_000,
    },
    {
      name: 'stages: ramp 0 -> 100/s over 40 s, step to 300/s, hold 20 s',
      plan: {
        stages: [
          { startMs: 0, endMs: 40_000, from: 0, to: 100 },
          { startMs: 40_000, endMs: 40_000, from: 100, to: 300 },
          { startMs: 40_000, endMs: 60_000, from: 300, to: 300 },
        ],
        startRatePerSec: 0,
        endRatePerSec: 300,
        durationMs: 60_000,
      },
      cumulative: (t) => (t <= 40 ? (100 * t * t) / 80 : 2_000 + 300 * (t - 40)),
      expected: 8_000,
    },
  ];

  it.each(cases)('$name', ({ plan, cumulative, expected }) => {
    const pacer = schedulePacer(poissonPlan(plan), stream);
    // The count is Poisson of the plan's mean: within 4 standard deviations.
    expect(Math.abs(pacer.totalSlots - expected)).toBeLessThan(4 * Math.sqrt(expected));
    const rescaled = timesOf(pacer).map(cumulative);
    const gaps = rescaled.map((s, i) => s - (i === 0 ? 0 : rescaled[i - 1]!));
    expect(ksExponential(gaps)).toBeLessThan(ksCritical(gaps.length));
    // Each tenth of the run holds its expected arrivals (within 4 standard deviations).
    const endSec = plan.durationMs / 1_000;
    for (let k = 0; k < 10; k++) {
      const [from, to] = [(k * endSec) / 10, ((k + 1) * endSec) / 10];
      const want = cumulative(to) - cumulative(from);
      const got = pacer.dueBy(to * 1_000) - pacer.dueBy(from * 1_000);
      expect(Math.abs(got - want)).toBeLessThan(4 * Math.sqrt(want) + 1);
    }
  });
});

describe('Poisson pacer: the schedule as data', () => {
  const plan = poissonPlan({ stages: null, startRatePerSec: 100, endRatePerSec: 100, durationMs: 60_000 });

  it('is the same for the same seed, process and workload, and another for any other', () => {
    const first = timesOf(schedulePacer(plan, stream), 500);
    expect(timesOf(schedulePacer(plan, stream), 500)).toEqual(first);
    for (const other of [
      { ...stream, seed: 2 },
      { ...stream, stream: 1 },
      { ...stream, workload: 'tagLink' as const },
    ]) {
      const times = timesOf(schedulePacer(plan, other), 500);
      expect(times.filter((t, i) => t === first[i]).length).toBe(0);
    }
  });

  it.each([
    ['in order', [0, 1, 2, 3_000, 5_999]],
    ['backwards (a replay of the stream)', [5_999, 3_000, 2, 1, 0]],
    ['far ahead, then back', [5_000, 10, 5_001, 4_999]],
  ])('gives each slot one time whatever the order it is read in: %s', (_name, order) => {
    const reference = timesOf(schedulePacer(plan, stream));
    const pacer = schedulePacer(plan, stream);
    for (const i of order) expect(pacer.slotTimeMs(i) / 1_000).toBe(reference[i]);
  });

  it('keeps dueBy and slotTimeMs inverse to each other, times ascending within the run', () => {
    const pacer = schedulePacer(plan, stream);
    let previous = 0;
    for (let i = 0; i < pacer.totalSlots; i += 97) {
      const t = pacer.slotTimeMs(i);
      expect(t).toBeGreaterThanOrEqual(previous);
      expect(t).toBeLessThanOrEqual(60_000);
      expect(pacer.dueBy(t)).toBeGreaterThanOrEqual(i + 1);
      previous = t;
    }
    expect(pacer.dueBy(60_000)).toBe(pacer.totalSlots);
    expect(pacer.dueBy(-1)).toBe(0);
    expect(pacer.slotTimeMs(pacer.totalSlots)).toBe(Infinity);
  });

  it.each([
    ['rate 0', { stages: null, startRatePerSec: 0, endRatePerSec: 0, durationMs: 10_000 }],
    ['no time', { stages: null, startRatePerSec: 100, endRatePerSec: 100, durationMs: 0 }],
  ])('has no slots at %s', (_name, empty) => {
    const pacer = schedulePacer(poissonPlan(empty), stream);
    expect(pacer.totalSlots).toBe(0);
    expect(pacer.dueBy(5_000)).toBe(0);
  });

  it('leaves uniform arrivals as they were: slot i at the i-th expected arrival', () => {
    const pacer = schedulePacer({ ...plan, arrivals: 'uniform' }, stream);
    expect(pacer.totalSlots).toBe(6_000);
    expect([0, 1, 2, 5_999].map((i) => pacer.slotTimeMs(i))).toEqual([0, 10, 20, 59_990]);
  });
});
