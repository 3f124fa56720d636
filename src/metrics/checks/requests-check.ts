/**
 * `requests.expectations` (docs/design.md §5.4): every answer to a request kind is one
 * observation, held when it met the kind's expectations (status set, media type, JSON Schema,
 * required headers). It fails on any failed observation and names the kinds that failed, so a
 * fault on one endpoint fails the check by that kind's name; an unanswered request is no
 * evidence (it shows in the kind's errors, which thresholds judge).
 */
import type { CheckResult } from '../../contract/report.js';
import type { MetricSet } from '../metric-set.js';
import { fail, passOnEvidence, top } from './check-result.js';
import { evidenceFailures, evidenceRuns, evidenceSamples } from './evidence.js';

const KIND_FAILURES = /^requests\.([^.]+)\.expectationFailures$/;

/** Failed observations by kind, from the kinds' own counters. */
export function failuresByKind(total: MetricSet): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, count] of Object.entries(total.encodeCounters())) {
    const kind = KIND_FAILURES.exec(name)?.[1];
    if (kind !== undefined && count > 0) out[kind] = count;
  }
  return out;
}

export function requestsExpectationsCheck(total: MetricSet): CheckResult {
  const id = 'requests.expectations';
  const runs = total.count(evidenceRuns(id));
  const failures = total.count(evidenceFailures(id));
  if (failures > 0) {
    const first = total.samplesOf(evidenceSamples(id))[0] ?? '';
    return fail(id, failures, `${failures} of ${runs} answers missed their kind's expectations (by kind: ${top(failuresByKind(total))}); first: ${first}`);
  }
  return passOnEvidence(
    id,
    runs,
    `${runs} answers met their kind's expectations`,
    'no answer to a request kind was judged (the profile has no `requests`, or no answer)',
  );
}
