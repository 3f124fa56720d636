/**
 * The tag create-and-link workload (API endpoint 3, docs/design.md §4) with the coach/connector token: each
 * request links a profile-set mix of new and already-existing names to participant
 * `seq mod n`; the answer must hold one id per new name and none for an existing one.
 */

import type { FailureCode } from '../../contract/failure-codes.js';
import type { FixtureParticipant } from '../../contract/fixtures.js';
import { recordEvidence } from '../../metrics/checks/evidence.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import { TAG_EXTRA } from '../../metrics/throughput-extra-names.js';
import type { HttpRequestSpec } from './http-exchange.js';
import { ACCEPT } from './photo-workload.js';
import { type Inspection, type Label, labelText, statusReason } from './response-check.js';
import type { TagNamePool } from './tag-name-pool.js';
import type { Workload } from './workload.js';

/** API endpoint 3, under /api/v1. */
export const TAGS_PATH = '/admin/tags/new_and_link/participant';

/** The names a request sent, split by whether they existed. */
export interface TagMemo {
  newNames: string[];
  existing: string[];
}

/** Inputs of the tag workload. */
export interface TagWorkloadOptions {
  basePath: string;
  apiKey: string;
  /** The coach token now: read per request, so a renewed one is used at once. */
  coachToken: () => string;
  participants: readonly FixtureParticipant[];
  pool: TagNamePool;
  tagsPerRequest: number;
  existingShare: number;
}

/** Request headers of a create-and-link request with bearer `token`. */
function tagHeaders(token: string, apiKey: string | null): Record<string, string> {
  const headers: Record<string, string> = { accept: ACCEPT, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  if (apiKey !== null) headers['x-api-key'] = apiKey;
  return headers;
}

const tagBody = (participantId: string, names: readonly string[]): string => JSON.stringify({ participantId, tags: names });

/** A create-and-link request with the given bearer token (coach, or a participant's for the role probe). */
export function tagRequest(basePath: string, token: string, apiKey: string | null, participantId: string, names: readonly string[]): HttpRequestSpec {
  return { method: 'POST', path: `${basePath}${TAGS_PATH}`, headers: tagHeaders(token, apiKey), body: tagBody(participantId, names) };
}

/** Builds the tag workload; confirmed new names feed later requests as existing ones. */
export function createTagWorkload(options: TagWorkloadOptions): Workload<TagMemo> {
  const { basePath, apiKey, coachToken, participants, pool, tagsPerRequest, existingShare } = options;
  const path = `${basePath}${TAGS_PATH}`;
  // Frozen and shared by every request until a renewal changes the token.
  let held: { token: string; headers: Readonly<Record<string, string>> } | undefined;
  return {
    scenario: 'tagLink',
    next(seq) {
      const participant = participants[seq % participants.length] as FixtureParticipant;
      const pick = pool.pick(tagsPerRequest, existingShare);
      const token = coachToken();
      if (held?.token !== token) held = { token, headers: Object.freeze(tagHeaders(token, apiKey)) };
      const spec: HttpRequestSpec = { method: 'POST', path, headers: held.headers, body: tagBody(participant.userId, pick.names) };
      return { spec, memo: { newNames: pick.newNames, existing: pick.existing } };
    },
    judge(metrics, memo, inspection) {
      const verdict = judgeTags(metrics, memo, inspection, () => tagLabel(memo));
      if (verdict.created) pool.confirm(memo.newNames);
      return verdict.failures;
    },
    account(metrics, memo) {
      metrics.inc(TAG_EXTRA.existingSent, memo.existing.length);
    },
    label: tagLabel,
  };
}

const tagLabel = (memo: TagMemo): string => `POST new_and_link (${memo.newNames.length} new, ${memo.existing.length} existing)`;

/** Ids of a create-and-link answer: an array of distinct non-empty strings or numbers, else null. */
export function tagIds(json: unknown): Array<string | number> | null {
  if (!Array.isArray(json)) return null;
  const ok = json.every((id) => (typeof id === 'string' && id.length > 0) || (typeof id === 'number' && Number.isFinite(id)));
  return ok && new Set(json).size === json.length ? (json as Array<string | number>) : null;
}

/** The outcome of judging one create-and-link answer. */
export interface TagVerdict {
  /** The target created every new name (so they exist from now on). */
  created: boolean;
  failures: FailureCode[];
}

/**
 * tags.link: 200 and an array of ids, at least one per new name (and exactly that many when
 * no existing name was sent); an answer holds for it only when it linked a new name, since
 * an empty array for existing names alone shows nothing was created. tags.existing.ignored
 * (only when existing names were sent): no more ids than new names. `label` is made only for a failure.
 */
export function judgeTags(metrics: MetricSet, memo: TagMemo, inspection: Inspection, label: Label): TagVerdict {
  if (inspection.status !== 200) {
    recordEvidence(metrics, 'tags.link', `${labelText(label)}: ${statusReason(inspection)}`);
    return { created: false, failures: [] };
  }
  const ids = tagIds(inspection.json);
  const wanted = memo.newNames.length;
  if (ids === null) {
    recordEvidence(metrics, 'tags.link', `${labelText(label)}: answer is not an array of distinct tag ids`);
    return { created: false, failures: ['body-invalid'] };
  }
  const failures: FailureCode[] = [];
  if (ids.length < wanted) {
    recordEvidence(metrics, 'tags.link', `${labelText(label)}: ${ids.length} ids for ${wanted} new names`);
    failures.push('body-invalid');
  } else if (memo.existing.length === 0 && ids.length > wanted) {
    recordEvidence(metrics, 'tags.link', `${labelText(label)}: ${ids.length} ids for ${wanted} new names`);
    failures.push('body-invalid');
  } else if (wanted > 0) {
    recordEvidence(metrics, 'tags.link', null);
  }
  if (memo.existing.length > 0) {
    const extra = Math.max(0, ids.length - wanted);
    if (extra > 0) {
      metrics.inc(TAG_EXTRA.existingReturned, extra);
      failures.push('existing-returned');
    }
    recordEvidence(metrics, 'tags.existing.ignored', extra > 0 ? `${labelText(label)}: ${extra} id(s) returned for existing names` : null);
  }
  const created = ids.length >= wanted;
  if (created) metrics.inc(TAG_EXTRA.tagsCreated, wanted);
  return { created, failures };
}
