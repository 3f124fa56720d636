/**
 * `requests.expectations` (docs/design.md §5.4): every answer to a request kind is one
 * observation, held when it met the kind's expectations (status set, media type, JSON Schema,
 * required headers). It fails on any failed observation and names the kinds that failed, so a
 * fault on one endpoint fails the check by that kind's name; an unanswered request is no
 * evidence (it shows in the kind's errors, which thresholds judge). Each enabled kind needs
 * evidence of its own: another kind's answers prove nothing about an endpoint that answered
 * nothing, or that a kind without its coach token never asked.
 */
import type { CheckResult } from '../../contract/report.js';
import type { MetricSet } from '../metric-set.js';
import { requestKindKey, throughputNames } from '../names.js';
import { fail, passOnEvidence, skip, top } from './check-result.js';
import { evidenceFailures, evidenceRuns, evidenceSamples } from './evidence.js';

/** Counters of one kind's observations of `requests.expectations` (which kinds failed, in the check's detail). */
export const expectationRunsName = (kind: string): string => `requests.${kind}.expectationRuns`;
export const expectationFailuresName = (kind: string): string => `requests.${kind}.expectationFailures`;
/** Counter of a kind that sent nothing (a coach credential and no coach token). */
export const kindSkippedName = (kind: string): string => `requests.${kind}.skipped`;

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

/** Why an enabled kind gave no evidence, or null when at least one of its answers was judged. */
function noEvidenceOf(total: MetricSet, kind: string): string | null {
  if (total.count(expectationRunsName(kind)) > 0) return null;
  if (total.count(kindSkippedName(kind)) > 0) return `${kind} sent nothing (it needs a coach token)`;
  const names = throughputNames(requestKindKey(kind));
  const requests = total.count(names.requests);
  if (requests === 0) return `${kind} completed no request`;
  const prefix = names.errorKind('');
  const codes: Record<string, number> = {};
  for (const [name, count] of Object.entries(total.encodeCounters())) if (name.startsWith(prefix) && count > 0) codes[name.slice(prefix.length)] = count;
  return `${kind} had no answer judged: ${requests} requests, ${total.count(names.errors)} failed (${top(codes) || 'no code'})`;
}

/** `kinds`: the profile's enabled request kinds, each of which must have had an answer judged. */
export function requestsExpectationsCheck(total: MetricSet, kinds: readonly string[] = []): CheckResult {
  const id = 'requests.expectations';
  const runs = total.count(evidenceRuns(id));
  const failures = total.count(evidenceFailures(id));
  if (failures > 0) {
    const first = total.samplesOf(evidenceSamples(id))[0] ?? '';
    return fail(id, failures, `${failures} of ${runs} answers missed their kind's expectations (by kind: ${top(failuresByKind(total))}); first: ${first}`);
  }
  const missing = runs > 0 ? kinds.map((kind) => noEvidenceOf(total, kind)).filter((why): why is string => why !== null) : [];
  if (missing.length > 0) {
    return skip(id, `no evidence for every request kind: ${missing.join('; ')} (${runs} answers of the other kinds met their expectations)`);
  }
  return passOnEvidence(
    id,
    runs,
    `${runs} answers met their kind's expectations`,
    'no answer to a request kind was judged (the profile has no `requests`, or no answer)',
  );
}
