/**
 * The profile-photo upload workload (API endpoint 2, docs/design.md §4): request `seq` goes to participant
 * `seq mod n`, carries one corpus image, and uses the `name` override for the profile's
 * share of requests. Bodies are built once per (image, variant) here and shared.
 */

import type { FixtureParticipant } from '../../contract/fixtures.js';
import { PHOTO_EXTRA } from '../../metrics/throughput-extra-names.js';
import type { HttpRequestSpec } from './http-exchange.js';
import type { CorpusImage } from './images/image-corpus.js';
import { defaultPhotoBody, type MultipartBody, overridePhotoBody } from './multipart-body.js';
import { judgePhoto, type PhotoUpload } from './photo-judge.js';
import { mixedIndex, shareHit, type Workload } from './workload.js';

/** The Accept header of API endpoint 2 (sent on tag requests too). */
export const ACCEPT = 'application/json, application/problem+json';

/** What an upload remembers for its judge: one per (image, part), shared by every request that sends it. */
export interface PhotoMemo {
  readonly override: boolean;
  readonly bytes: number;
  readonly image: CorpusImage;
  /** What the judge needs of it. */
  readonly upload: PhotoUpload;
  /** Its label in failure samples, made once. */
  readonly label: string;
}

/** Inputs of the photo workload: where, who, and the corpus to send. */
export interface PhotoWorkloadOptions {
  basePath: string;
  apiKey: string;
  participants: readonly FixtureParticipant[];
  corpus: readonly CorpusImage[];
  overrideShare: number;
}

/** PATCH path of a participant's profile photo. */
export const photoPath = (basePath: string, userId: string): string => `${basePath}/participants/${encodeURIComponent(userId)}/profile_photo`;

/** Request headers of an upload: the API's Accept, bearer token and API key. */
export function photoHeaders(token: string, apiKey: string | null, contentType: string): Record<string, string> {
  const headers: Record<string, string> = { accept: ACCEPT, authorization: `Bearer ${token}`, 'content-type': contentType };
  if (apiKey !== null) headers['x-api-key'] = apiKey;
  return headers;
}

/** A participant's upload headers for one token and Content-Type, frozen: shared by its requests until either changes. */
interface HeldHeaders {
  token: string;
  contentType: string;
  headers: Readonly<Record<string, string>>;
}

/** Builds the photo workload; every multipart body is made here, once. */
export function createPhotoWorkload(options: PhotoWorkloadOptions): Workload<PhotoMemo> {
  const { basePath, apiKey, participants, corpus, overrideShare } = options;
  const paths = participants.map((p) => photoPath(basePath, p.userId));
  const defaults: MultipartBody[] = corpus.map(defaultPhotoBody);
  // Override bodies are only built when the profile asks for them (they double the memory).
  const overrides: MultipartBody[] = overrideShare > 0 ? corpus.map(overridePhotoBody) : [];
  const memoOf = (override: boolean, body: MultipartBody, image: CorpusImage): PhotoMemo => {
    const memo = { override, bytes: body.body.length, image, upload: { override, format: image.format } };
    return { ...memo, label: photoLabel(memo) };
  };
  const defaultMemos = corpus.map((image, i) => memoOf(false, defaults[i] as MultipartBody, image));
  const overrideMemos = overrides.map((body, i) => memoOf(true, body, corpus[i] as CorpusImage));
  // A token is read per request (a renewal replaces it in the fixtures object): the frozen
  // headers are remade when it, or the body's Content-Type, is not the one they were made for.
  const held: Array<HeldHeaders | undefined> = new Array(participants.length);
  const headersOf = (index: number, token: string, contentType: string): Readonly<Record<string, string>> => {
    const kept = held[index];
    if (kept !== undefined && kept.token === token && kept.contentType === contentType) return kept.headers;
    const headers = Object.freeze(photoHeaders(token, apiKey, contentType));
    held[index] = { token, contentType, headers };
    return headers;
  };

  return {
    scenario: 'photoUpload',
    next(seq) {
      const participantIndex = seq % participants.length;
      const participant = participants[participantIndex] as FixtureParticipant;
      const imageIndex = mixedIndex(seq, corpus.length);
      const override = overrideShare > 0 && shareHit(seq, overrideShare);
      const body = (override ? overrides : defaults)[imageIndex] as MultipartBody;
      const spec: HttpRequestSpec = {
        method: 'PATCH',
        path: paths[participantIndex] as string,
        headers: headersOf(participantIndex, participant.token, body.contentType),
        body: body.body,
      };
      return { spec, memo: (override ? overrideMemos : defaultMemos)[imageIndex] as PhotoMemo };
    },
    judge(metrics, memo, inspection) {
      return judgePhoto(metrics, memo.upload, inspection, memo.label);
    },
    account(metrics, memo) {
      metrics.inc(PHOTO_EXTRA.bytesSent, memo.bytes);
      if (memo.override) metrics.inc(PHOTO_EXTRA.overrideRequests);
    },
    label: (memo) => memo.label,
  };
}

const photoLabel = (memo: Pick<PhotoMemo, 'override' | 'image'>): string =>
  `PATCH profile_photo (${memo.override ? '`name` override' : '`filename` part'}, ${memo.image.fileName})`;
