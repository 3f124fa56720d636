/**
 * Evidence for the request-level checks (photo.*, tags.*, auth.*, errors.*): each observation
 * counts one run and, when it failed, one failure plus a redacted sample. Evidence lives in a
 * MetricSet, so it merges across workers and shards like every other counter.
 */

import type { CheckId } from '../../contract/check-ids.js';
import { remembered } from '../../util/remembered.js';
import type { MetricSet } from '../metric-set.js';

/** Built once per check: recordEvidence runs on every answer. */
export const evidenceRuns = remembered((id: CheckId): string => `check.${id}.runs`);
export const evidenceFailures = (id: CheckId): string => `check.${id}.failures`;
export const evidenceSamples = (id: CheckId): string => `check.${id}`;

/** Records one observation for a check; `failure` is a short human reason, or null when it held. */
export function recordEvidence(metrics: MetricSet, id: CheckId, failure: string | null): void {
  metrics.inc(evidenceRuns(id));
  if (failure !== null) {
    metrics.inc(evidenceFailures(id));
    // MetricSet.sample masks the few samples it keeps; masking every failure here first cost each one a second pass.
    metrics.sample(evidenceSamples(id), failure);
  }
}
