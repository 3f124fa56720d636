/**
 * The small statistics a trend needs beyond E-divisive: Student t quantiles for the
 * confidence interval of a shift, and the Theil–Sen slope with the Mann–Kendall test for
 * slow drifts (a drift has no single change point; it shows as a monotone trend).
 */

export function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Sample variance (n − 1); 0 for fewer than two values. */
export function sampleVariance(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return values.reduce((sum, value) => sum + (value - m) ** 2, 0) / (values.length - 1);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Standard normal CDF (Abramowitz & Stegun 7.1.26 through erf; error < 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Standard normal quantile (Acklam's rational approximation; relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const poly = (coefficients: number[], x: number): number => coefficients.reduce((sum, coefficient) => sum * x + coefficient, 0);
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return poly(c, q) / (poly(d, q) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (poly(a, r) * q) / poly([...b, 1], r);
}

/**
 * Student t quantile with `df` degrees of freedom: exact for 1 and 2, else the
 * Cornish–Fisher expansion around the normal quantile (within 1 % from df = 3 at 99.5 %).
 */
export function tQuantile(p: number, df: number): number {
  if (!Number.isFinite(df) || df > 1e6) return normalQuantile(p);
  if (df <= 1) return Math.tan(Math.PI * (p - 0.5));
  if (df <= 2) return (2 * p - 1) * Math.sqrt(2 / (4 * p * (1 - p)));
  const z = normalQuantile(p);
  const z3 = z ** 3;
  const z5 = z ** 5;
  const z7 = z ** 7;
  const z9 = z ** 9;
  return (
    z +
    (z3 + z) / (4 * df) +
    (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) +
    (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3) +
    (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * df ** 4)
  );
}

/** A monotone trend over the run order: Theil–Sen slope per run and the Mann–Kendall p-value. */
export interface Drift {
  /** Median of the pairwise slopes, in the metric's unit per run. */
  slopePerRun: number;
  /** Two-sided Mann–Kendall p-value (normal approximation, ties corrected). */
  pValue: number;
}

/** Theil–Sen and Mann–Kendall over `values` in run order; null below 4 values. */
export function drift(values: readonly number[]): Drift | null {
  const n = values.length;
  if (n < 4) return null;
  const slopes: number[] = [];
  let s = 0;
  for (let i = 0; i < n; i += 1) {
    for (let j = i + 1; j < n; j += 1) {
      const diff = (values[j] as number) - (values[i] as number);
      slopes.push(diff / (j - i));
      s += Math.sign(diff);
    }
  }
  const ties = new Map<number, number>();
  for (const value of values) ties.set(value, (ties.get(value) ?? 0) + 1);
  let tieTerm = 0;
  for (const t of ties.values()) tieTerm += t * (t - 1) * (2 * t + 5);
  const variance = (n * (n - 1) * (2 * n + 5) - tieTerm) / 18;
  const z = variance > 0 ? (s - Math.sign(s)) / Math.sqrt(variance) : 0;
  return { slopePerRun: median(slopes), pValue: Math.min(1, 2 * (1 - normalCdf(Math.abs(z)))) };
}
