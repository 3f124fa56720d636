/**
 * Splits `total` whole things over parts in proportion to `weights`, each part at least one:
 * one each, and the rest by the largest-remainder (Hamilton) method, ties to the earlier part.
 * The shares sum to `total` exactly. Null when `total` is smaller than the number of parts
 * (some part would get none).
 */
export function apportionAtLeastOne(total: number, weights: readonly number[]): number[] | null {
  const parts = weights.length;
  const whole = Math.floor(total + 1e-9);
  if (parts === 0) return [];
  if (whole < parts) return null;
  const rest = whole - parts;
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  const quotas = weights.map((weight) => (weightSum > 0 ? (rest * weight) / weightSum : rest / parts));
  const shares = quotas.map((quota) => 1 + Math.floor(quota + 1e-9));
  let left = whole - shares.reduce((sum, share) => sum + share, 0);
  const byRemainder = quotas.map((quota, i) => ({ i, remainder: quota - Math.floor(quota + 1e-9) })).sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left <= 0) break;
    shares[i] = (shares[i] as number) + 1;
    left--;
  }
  return shares;
}
