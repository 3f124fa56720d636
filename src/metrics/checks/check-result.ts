/**
 * Builders of CheckResult, shaped so that nothing passes without evidence: a pass is built
 * only from a positive number of observations, and with none it becomes a skip that says
 * what evidence was missing (docs/design.md §5.4).
 */
import type { CheckId } from '../../contract/check-ids.js';
import type { CheckResult } from '../../contract/report.js';

/** A failure: `observed` is the number of failed observations (or the value that broke a bound). */
export const fail = (id: CheckId, observed: number, detail: string): CheckResult => ({ id, status: 'fail', observed, detail });

/** A check the run gave no evidence for; `reason` says which evidence was missing. */
export const skip = (id: CheckId, reason: string): CheckResult => ({ id, status: 'skip', observed: null, detail: reason });

/**
 * A pass resting on `observations` that held; with none it is a skip for `noEvidence`.
 * `observed` of a pass is therefore always > 0.
 */
export function passOnEvidence(id: CheckId, observations: number, detail: string, noEvidence: string): CheckResult {
  if (!(observations > 0)) return skip(id, noEvidence);
  return { id, status: 'pass', observed: observations, detail };
}

export const sum = (record: Readonly<Record<string, number>>): number => Object.values(record).reduce((a, b) => a + b, 0);

/** `a: 3, b: 1`, largest first. */
export const top = (record: Readonly<Record<string, number>>): string =>
  Object.entries(record)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
