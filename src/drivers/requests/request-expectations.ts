/**
 * Judges a request kind's answer by the kind's own expectations (docs/design.md §2.15): its
 * status set, media type, JSON Schema and required headers. Each finding is a code of the one
 * failure vocabulary (docs/failure-codes.md); every answer is one observation of
 * `requests.expectations`, and of its kind's own count of them.
 */
import type { ValidateFunction } from 'ajv';
import { type FailureCode, statusFailure } from '../../contract/failure-codes.js';
import type { RequestExpectation } from '../../contract/profile/profile.js';
import { compileBodySchema } from '../../contract/profile/resolve-requests.js';
import { recordEvidence } from '../../metrics/checks/evidence.js';
import { expectationFailuresName, expectationRunsName } from '../../metrics/checks/requests-check.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import {
  foreignAnswer,
  type Inspection,
  isJsonMediaType,
  mediaType,
  NO_JSON,
  parseJson,
  problemJsonFailure,
  type ResponseView,
  statusReason,
} from '../throughput/response-check.js';

/** An inspection with the reasons a human reads, one per failure. */
export interface KindInspection extends Inspection {
  reasons: string[];
}

/** The judge of one kind, its schema compiled once. */
export function expectationJudge(expect: RequestExpectation, where: string): (view: ResponseView) => KindInspection {
  const validate: ValidateFunction | null = expect.schema === null ? null : compileBodySchema(expect.schema, where);
  const statuses = new Set(expect.status);
  const expectedText = expect.status.join(' or ');
  // A kind that expects a JSON media type expects a JSON body, schema or not: an answer whose
  // body does not parse under that type is not what the kind asked for (docs/design.md §2.15).
  const jsonBody = validate !== null || (expect.mediaType !== null && isJsonMediaType(expect.mediaType));
  return (view) => {
    const expected = statuses.has(view.status);
    const foreign = foreignAnswer(view, expected);
    if (foreign !== null) return { ...foreign, reasons: [statusReason(foreign, expectedText)] };
    const failures: FailureCode[] = [];
    const reasons: string[] = [];
    if (!expected) {
      failures.push(statusFailure(view.status));
      reasons.push(`status ${view.status} (expected ${expectedText})`);
    }
    const missingHeaders = expect.headers.filter((name) => !view.headers[name]);
    if (missingHeaders.length > 0) {
      failures.push('headers-missing');
      reasons.push(`missing ${missingHeaders.join(', ')}`);
    }
    const parsed = parseJson(view.body);
    const json = parsed === NO_JSON ? undefined : parsed;
    const type = mediaType(view.headers['content-type']);
    if (expected && expect.mediaType !== null && type !== expect.mediaType) {
      failures.push('content-type');
      reasons.push(`Content-Type "${type || 'none'}" (expected ${expect.mediaType})`);
    }
    if (expected && jsonBody) {
      if (parsed === NO_JSON) {
        failures.push('body-invalid');
        reasons.push('body is not JSON');
      } else if (validate !== null && !validate(parsed)) {
        failures.push('body-schema');
        const error = validate.errors?.[0];
        reasons.push(`body does not match the schema (${error?.instancePath || '/'} ${error?.message ?? 'is invalid'})`);
      }
    }
    let problemFailure: string | null | undefined;
    if (view.status >= 400) {
      problemFailure = problemJsonFailure(view.status, type, parsed);
      if (problemFailure !== null && !expected) failures.push('problem-json');
    }
    return { status: view.status, failures, missingHeaders, json, problemFailure, reasons };
  };
}

/** One observation of `requests.expectations`, for the run and for the kind. */
export function recordKindEvidence(metrics: MetricSet, kind: string, label: string, inspection: KindInspection): void {
  const failed = inspection.reasons.length > 0;
  recordEvidence(metrics, 'requests.expectations', failed ? `${label}: ${inspection.reasons.join('; ')}` : null);
  metrics.inc(expectationRunsName(kind));
  if (failed) metrics.inc(expectationFailuresName(kind));
}
