/**
 * A merged report's checks: re-derivation already fails every count-based check when any
 * shard counted a failure (counts only grow when added). Not so for generator.healthy, a p99
 * bound: a saturated shard's tail can drown in its healthy peers' samples, yet that shard's
 * latencies are still untrustworthy. So a check failed in any shard fails in the merged
 * report too.
 */
import type { CheckResult } from '../contract/report.js';

/** One shard's own checks, and how messages name it. */
export interface ShardChecks {
  /** `shard 1/3`. */
  label: string;
  /** The report it came from (a path). */
  source: string;
  checks: readonly CheckResult[];
}

/** The merged data's checks, each failed where the first shard that failed it says why. */
export function withShardFailures(merged: readonly CheckResult[], shards: readonly ShardChecks[]): CheckResult[] {
  return merged.map((check) => {
    if (check.status === 'fail') return check;
    const failedIn = shards.find((shard) => shard.checks.some((c) => c.id === check.id && c.status === 'fail'));
    if (!failedIn) return check;
    const theirs = failedIn.checks.find((c) => c.id === check.id)!;
    return {
      id: check.id,
      status: 'fail',
      observed: theirs.observed,
      detail: `failed in ${failedIn.label} (${failedIn.source}): ${theirs.detail}; the merged data alone read: ${check.detail}`,
    };
  });
}
