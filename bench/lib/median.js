/**
 * The median of `values`; of an even count, the mean of the two middle values (two repetitions
 * give their mean, not the larger one). What every benchmark reports per build or tool.
 */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Where the median of the distribution behind `values` lies, without assuming its shape (the
 * sign test's interval): the k-th smallest and the k-th largest value, k as large as keeps the
 * chance that the median is outside them (2 × P(Binomial(n, ½) < k)) within 1 − `wanted`. Five
 * values are the fewest that reach 90 %; with fewer, the interval is their whole range and its
 * `confidence` says how much less that is (three values: 75 %). Null for no values.
 */
export function medianInterval(values, wanted = 0.9) {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return null;
  const outside = (k) => {
    // 2 × P(B ≤ k − 1), B ~ Binomial(n, ½)
    let term = 0.5 ** n;
    let below = 0;
    for (let j = 0; j < k; j += 1) {
      below += term;
      term = (term * (n - j)) / (j + 1);
    }
    return Math.min(1, 2 * below);
  };
  let k = 1;
  while (k + 1 <= Math.ceil(n / 2) && 1 - outside(k + 1) >= wanted) k += 1;
  return { low: sorted[k - 1], high: sorted[n - k], confidence: 1 - outside(k) };
}
