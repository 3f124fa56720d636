/**
 * E-divisive means (Matteson & James, JASA 2014), the change-point method of MongoDB's
 * performance CI (Daly et al., ICPE 2020) and of Hunter / Apache Otava: split a series
 * where the energy distance between the two sides is largest, keep the split only when a
 * permutation test says so at the stated level, and repeat on each side.
 *
 * With exponent 1 the statistic of the samples L = x[0, τ) and R = x[τ, κ) is
 *
 *   Q(τ, κ) = |L|·|R| / (|L| + |R|) · ( 2·mean|l − r| − mean|l − l'| − mean|r − r'| )
 *
 * (means over all cross pairs and over all pairs within each side), maximised over τ and κ.
 * Running sums of the distance matrix give every (τ, κ) of one segment in O(n²), so a
 * permutation test of 199 shuffles stays fast for hundreds of runs; it stops early once it
 * cannot reach the level.
 */
import { seededRandom } from '../../util/seeded-random.js';

/** Where a segment was split, and how sure the permutation test is. */
export interface Split {
  /** Index of the first value after the change. */
  at: number;
  /** Q of the split. */
  q: number;
  /** Permutation p-value: (shuffles with a larger best Q + 1) / (shuffles + 1). */
  pValue: number;
}

export interface EDivisiveOptions {
  /** Largest p-value a split may have (0.01 = significant at 1 %). */
  significance: number;
  /** Shuffles per permutation test; the smallest reachable p-value is 1 / (permutations + 1). */
  permutations: number;
  /** Fewest values on either side of a change point (2: one odd night is never a segment). */
  minSegment: number;
  /** Seed of the shuffles, so the same history always gives the same answer. */
  seed: number;
}

export const DEFAULT_E_DIVISIVE: EDivisiveOptions = { significance: 0.05, permutations: 199, minSegment: 2, seed: 0x5eed };

/**
 * The best split of `values` and its Q, searched as Matteson & James define it: over the
 * split τ and the end κ of the sample after it, so that a change that reverts later (a
 * regression fixed five nights on) stands out as clearly as a lasting one. At least
 * `minSegment` values on either side of τ; null when the series is too short to split.
 */
export function bestSplit(values: readonly number[], minSegment: number): { at: number; q: number } | null {
  const n = values.length;
  if (n < 2 * minSegment) return null;
  // rowBefore[p] = Σ_{i<p} |x_p − x_i|; toward[p·n + κ] = Σ_{p<j<κ} |x_p − x_j|
  const rowBefore = new Float64Array(n);
  const toward = new Float64Array(n * (n + 1));
  for (let p = 0; p < n; p += 1) {
    const xp = values[p] as number;
    for (let j = p + 1; j < n; j += 1) {
      const d = Math.abs(xp - (values[j] as number));
      toward[p * (n + 1) + j + 1] = (toward[p * (n + 1) + j] as number) + d;
      rowBefore[j] = (rowBefore[j] as number) + d;
    }
  }
  let best: { at: number; q: number } | null = null;
  let allPairs = 0;
  for (let kappa = 1; kappa <= n; kappa += 1) {
    allPairs += rowBefore[kappa - 1] as number;
    if (kappa < 2 * minSegment) continue;
    // τ = 0: all of x[0, κ) is the sample after; move values before the split one at a time.
    let withinLeft = 0;
    let withinRight = allPairs;
    let between = 0;
    for (let tau = 1; tau <= kappa - minSegment; tau += 1) {
      const p = tau - 1;
      const ahead = toward[p * (n + 1) + kappa] as number;
      withinLeft += rowBefore[p] as number;
      withinRight -= ahead;
      between += ahead - (rowBefore[p] as number);
      if (tau < minSegment) continue;
      const m = tau;
      const k = kappa - tau;
      const cross = (2 * between) / (m * k);
      const left = m > 1 ? withinLeft / ((m * (m - 1)) / 2) : 0;
      const right = k > 1 ? withinRight / ((k * (k - 1)) / 2) : 0;
      const q = ((m * k) / (m + k)) * (cross - left - right);
      if (best === null || q > best.q) best = { at: tau, q };
    }
  }
  return best;
}

function shuffle(values: number[], random: () => number): void {
  for (let i = values.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    const swap = values[i] as number;
    values[i] = values[j] as number;
    values[j] = swap;
  }
}

/**
 * The permutation p-value of a segment's best Q: how often a shuffled segment (no order,
 * hence no change) splits at least as well. Stops as soon as the level is out of reach.
 */
export function permutationPValue(values: readonly number[], observedQ: number, options: EDivisiveOptions, random: () => number): number {
  const copy = [...values];
  // p = (exceed + 1) / (P + 1) ≤ significance  ⇔  exceed ≤ significance·(P + 1) − 1
  const allowed = Math.floor(options.significance * (options.permutations + 1) - 1 + 1e-9);
  let exceed = 0;
  let done = 0;
  for (; done < options.permutations; done += 1) {
    shuffle(copy, random);
    const split = bestSplit(copy, options.minSegment);
    // A tolerance: ties in Q (the same values in another order) count as "at least as well".
    if (split !== null && split.q >= observedQ * (1 - 1e-12)) exceed += 1;
    if (exceed > allowed) return Math.min(1, (exceed + 1) / (done + 2));
  }
  return (exceed + 1) / (options.permutations + 1);
}

/**
 * Every significant change point of `values`, in order. Recursive bisection: the segment
 * with the largest best Q is tested first; a segment whose best split is not significant
 * is final.
 */
export function eDivisive(values: readonly number[], options: EDivisiveOptions = DEFAULT_E_DIVISIVE): Split[] {
  const random = seededRandom(options.seed);
  const found: Split[] = [];
  const pending: Array<[number, number]> = [[0, values.length]];
  while (pending.length > 0) {
    const candidates = pending.map(([from, to]) => ({ from, to, split: bestSplit(values.slice(from, to), options.minSegment) }));
    candidates.sort((a, b) => (b.split?.q ?? -1) - (a.split?.q ?? -1));
    const next = candidates[0];
    pending.length = 0;
    if (next === undefined || next.split === null) break;
    const others = candidates.slice(1).flatMap((c) => (c.split === null ? [] : [[c.from, c.to] as [number, number]]));
    const segment = values.slice(next.from, next.to);
    const pValue = permutationPValue(segment, next.split.q, options, random);
    if (pValue <= options.significance) {
      const at = next.from + next.split.at;
      found.push({ at, q: next.split.q, pValue });
      pending.push(...others, [next.from, at], [at, next.to]);
    } else {
      pending.push(...others);
    }
  }
  return found.sort((a, b) => a.at - b.at);
}
