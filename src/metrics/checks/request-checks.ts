/**
 * The request-level checks (photo.*, tags.*, auth.*, errors.*) from their evidence counters
 * (evidence.ts). An observation is an answer judged for the check; with none the check is a
 * skip saying what was missing. A refusal (401/403) proves the rule it probes only when the
 * run also saw the same credentials otherwise accepted (a photo upload or a create-and-link
 * that held): a target that refuses everything shows no rule, and its refusal checks say so
 * instead of passing.
 */
import type { CheckId } from '../../contract/check-ids.js';
import type { CheckResult } from '../../contract/report.js';
import type { MetricSet } from '../metric-set.js';
import { fail, passOnEvidence, skip } from './check-result.js';
import { evidenceFailures, evidenceRuns, evidenceSamples } from './evidence.js';

export type RequestCheckId = Exclude<CheckId, `stream.${string}` | 'generator.healthy' | 'auth.token.refresh' | 'load.achieved'>;

/** What a skip says each check lacked. */
const NO_EVIDENCE: Readonly<Record<RequestCheckId, string>> = {
  'photo.upload': 'no upload in the `filename` part was answered (photoUpload off, or no answer)',
  'photo.fieldname.override': 'no upload with the `name` override was answered (photoUpload off, or no answer)',
  'tags.link': 'no create-and-link naming a new tag was answered (tagLink off, no coach token, or no answer)',
  'tags.existing.ignored': 'no create-and-link naming an existing tag was answered',
  'tags.role.required':
    'the participant-token probe did not run (tagLink off), or its 401 came with the same token refused on its own upload (the probe log says so)',
  'auth.apikey.required': 'no request without X-API-Key was probed (photoUpload and tagLink off)',
  'errors.problem_json': 'no 4xx or 5xx answer was seen',
  'requests.expectations': 'no answer to a request kind was judged (the profile has no `requests`, or no answer)',
};

/**
 * Accepted answers that make a refusal meaningful: the participant token with the key on an
 * upload, or the coach token on create-and-link.
 */
const CONTROLS: Partial<Readonly<Record<RequestCheckId, readonly RequestCheckId[]>>> = {
  'tags.role.required': ['tags.link', 'photo.upload'],
  'auth.apikey.required': ['photo.upload', 'tags.link'],
};

const held = (total: MetricSet, id: CheckId): number => total.count(evidenceRuns(id)) - total.count(evidenceFailures(id));

/** One request-level check: fail on any failed observation, else pass on the held ones. */
export function requestCheck(total: MetricSet, id: RequestCheckId): CheckResult {
  const runs = total.count(evidenceRuns(id));
  const failures = total.count(evidenceFailures(id));
  if (failures > 0) {
    const first = total.samplesOf(evidenceSamples(id))[0] ?? '';
    return fail(id, failures, `${failures} of ${runs} observations failed; first: ${first}`);
  }
  const controls = CONTROLS[id];
  if (runs > 0 && controls && !controls.some((control) => held(total, control) > 0)) {
    const about = id === 'tags.role.required' ? 'the role' : 'the key';
    return skip(id, `${runs} refusals seen, but no ${controls.join(' or ')} request was accepted in this run: nothing shows the refusals were about ${about}`);
  }
  return passOnEvidence(id, runs, `${runs} observations held`, NO_EVIDENCE[id]);
}
