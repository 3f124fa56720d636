import { describe, expect, it } from 'vitest';
import { randomStream, xoshiro128ss } from '../../src/util/random-stream.js';
import { exponential, logGamma, poisson } from '../../src/util/random-variates.js';

describe('randomStream', () => {
  it('gives doubles in [0, 1) with a uniform mean and spread', () => {
    const random = randomStream(1, 0, 1);
    const xs = Array.from({ length: 20_000 }, random);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.01);
    // Ten equal bins each hold a tenth (within 5 standard deviations).
    const bins = new Array<number>(10).fill(0);
    for (const x of xs) bins[Math.floor(x * 10)]!++;
    for (const count of bins) expect(Math.abs(count - 2_000)).toBeLessThan(5 * Math.sqrt(20_000 * 0.1 * 0.9));
  });

  it.each([
    ['seed', [2, 0, 1]],
    ['stream', [1, 1, 1]],
    ['key', [1, 0, 2]],
    ['seed 0 against stream 0 (no word collides)', [0, 0, 1]],
  ] as const)('is another stream when the %s differs', (_name, [seed, stream, key]) => {
    const base = Array.from({ length: 64 }, randomStream(1, 0, 1));
    const other = Array.from({ length: 64 }, randomStream(seed, stream, key));
    expect(other.filter((x, i) => x === base[i])).toEqual([]);
  });

  it('is the same stream for the same keys', () => {
    expect(Array.from({ length: 16 }, randomStream(7, 3, 2))).toEqual(Array.from({ length: 16 }, randomStream(7, 3, 2)));
  });

  it('xoshiro128** never sticks at the all-zero state', () => {
    const next = xoshiro128ss([0, 0, 0, 0]);
    expect(new Set(Array.from({ length: 8 }, next)).size).toBeGreaterThan(1);
  });
});

describe('random variates', () => {
  it.each([
    [1, 0],
    [2, 0],
    [3, Math.log(2)],
    [10, Math.log(362_880)],
    [0.5, Math.log(Math.sqrt(Math.PI))],
    [101, 363.73937555556347],
  ])('logGamma(%d) = %d', (x, want) => {
    expect(logGamma(x)).toBeCloseTo(want, 9);
  });

  it.each([0.5, 5, 9.99, 10, 250, 1e6])('poisson(%d) has that mean and variance', (mean) => {
    const random = randomStream(11, 0, 9);
    const n = 20_000;
    const xs = Array.from({ length: n }, () => poisson(mean, random));
    expect(xs.every((x) => Number.isInteger(x) && x >= 0)).toBe(true);
    const m = xs.reduce((a, b) => a + b, 0) / n;
    const v = xs.reduce((a, b) => a + (b - m) ** 2, 0) / n;
    // The sample mean within 5 standard errors; the variance within 5 % of the mean.
    expect(Math.abs(m - mean)).toBeLessThan(5 * Math.sqrt(mean / n));
    expect(Math.abs(v / mean - 1)).toBeLessThan(0.05);
  });

  it('poisson of 0 (or less) is 0', () => {
    expect(poisson(0, randomStream(1, 0, 1))).toBe(0);
  });

  it('exponential has mean 1', () => {
    const random = randomStream(3, 0, 1);
    const xs = Array.from({ length: 20_000 }, () => exponential(random));
    expect(Math.abs(xs.reduce((a, b) => a + b, 0) / xs.length - 1)).toBeLessThan(0.04);
  });
});
