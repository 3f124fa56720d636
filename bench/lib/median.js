/**
 * The median of `values`; of an even count, the mean of the two middle values (two repetitions
 * give their mean, not the larger one). What every benchmark reports per build or tool.
 */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
