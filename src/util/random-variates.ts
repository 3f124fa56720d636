/**
 * Random variates from a uniform source `random` (doubles in [0, 1)): exponential and Poisson.
 * The Poisson sampler is numpy's: multiplication below a mean of 10, Hörmann's PTRS
 * (transformed rejection with squeeze, 1993) above; both exact.
 */

export type Uniform = () => number;

/** An exponential variate of mean 1 (inversion; 1 − u is never 0). */
export function exponential(random: Uniform): number {
  return -Math.log(1 - random());
}

const STIRLING = [
  8.333333333333333e-2, -2.777777777777778e-3, 7.936507936507937e-4, -5.952380952380952e-4, 8.417508417508418e-4, -1.917526917526918e-3, 6.41025641025641e-3,
  -2.955065359477124e-2, 1.796443723688307e-1, -1.3924322169059,
];

/** ln Γ(x) for x > 0 (Stirling's series, shifted above 7 first). */
export function logGamma(x: number): number {
  if (x === 1 || x === 2) return 0;
  const shift = x < 7 ? Math.floor(7 - x) : 0;
  let x0 = x + shift;
  const x2 = 1 / (x0 * x0);
  let series = STIRLING[9]!;
  for (let k = 8; k >= 0; k--) series = series * x2 + STIRLING[k]!;
  let value = series / x0 + 0.5 * Math.log(2 * Math.PI) + (x0 - 0.5) * Math.log(x0) - x0;
  for (let k = 0; k < shift; k++) {
    x0 -= 1;
    value -= Math.log(x0);
  }
  return value;
}

function poissonSmall(mean: number, random: Uniform): number {
  const limit = Math.exp(-mean);
  let count = 0;
  let product = random();
  while (product > limit) {
    count++;
    product *= random();
  }
  return count;
}

function poissonPtrs(mean: number, random: Uniform): number {
  const slam = Math.sqrt(mean);
  const logMean = Math.log(mean);
  const b = 0.931 + 2.53 * slam;
  const a = -0.059 + 0.02483 * b;
  const invAlpha = 1.1239 + 1.1328 / (b - 3.4);
  const vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const u = random() - 0.5;
    const v = random();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + mean + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (Math.log(v) + Math.log(invAlpha) - Math.log(a / (us * us) + b) <= -mean + k * logMean - logGamma(k + 1)) return k;
  }
}

/** A Poisson variate of mean `mean` (>= 0). */
export function poisson(mean: number, random: Uniform): number {
  if (!(mean > 0)) return 0;
  return mean < 10 ? poissonSmall(mean, random) : poissonPtrs(mean, random);
}
