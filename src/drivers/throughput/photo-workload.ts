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
import { judgePhoto } from './photo-judge.js';
import { mixedIndex, shareHit, type Workload } from './workload.js';

/** The Accept header of API endpoint 2 (sent on tag requests too). */
export const ACCEPT = 'application/json, application/problem+json';

/** What an upload remembers for its judge. */
export interface PhotoMemo {
  override: boolean;
  bytes: number;
  image: CorpusImage;
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

/** Builds the photo workload; every multipart body is made here, once. */
export function createPhotoWorkload(options: PhotoWorkloadOptions): Workload<PhotoMemo> {
  const { basePath, apiKey, participants, corpus, overrideShare } = options;
  const paths = participants.map((p) => photoPath(basePath, p.userId));
  const defaults: MultipartBody[] = corpus.map(defaultPhotoBody);
  // Override bodies are only built when the profile asks for them (they double the memory).
  const overrides: MultipartBody[] = overrideShare > 0 ? corpus.map(overridePhotoBody) : [];

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
        headers: photoHeaders(participant.token, apiKey, body.contentType),
        body: body.body,
      };
      return { spec, memo: { override, bytes: body.body.length, image: corpus[imageIndex] as CorpusImage } };
    },
    judge(metrics, memo, inspection) {
      return judgePhoto(metrics, { override: memo.override, format: memo.image.format }, inspection, photoLabel(memo));
    },
    account(metrics, memo) {
      metrics.inc(PHOTO_EXTRA.bytesSent, memo.bytes);
      if (memo.override) metrics.inc(PHOTO_EXTRA.overrideRequests);
    },
    label: photoLabel,
  };
}

const photoLabel = (memo: PhotoMemo): string => `PATCH profile_photo (${memo.override ? '`name` override' : '`filename` part'}, ${memo.image.fileName})`;
