/**
 * The verdict on one profile-photo answer (photo.upload, photo.fieldname.override). A 200
 * alone proves nothing (a target answering 200 with random bytes would pass): the answer
 * must name the photo it stored, a `photoUrl` with the extension of the uploaded image's
 * format (docs/design.md §4.8, §5.4), which also shows which form part the target read.
 */
import type { FailureCode } from '../../contract/failure-codes.js';
import { recordEvidence } from '../../metrics/checks/evidence.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import { redactedStart } from '../../util/redact.js';
import type { ImageFormat } from './images/image-corpus.js';
import { describeInspection, type Inspection } from './response-check.js';

/** The extensions a stored photo's URL may end in, by the uploaded image's format. */
const EXTENSIONS: Readonly<Record<ImageFormat, readonly string[]>> = { jpeg: ['jpg', 'jpeg'], png: ['png'], webp: ['webp'] };

/** What went to the target: which part carried the image, and its format. */
export interface PhotoUpload {
  /** The image was in the part named by the `name` field, not in `filename`. */
  override: boolean;
  format: ImageFormat;
}

const isObject = (json: unknown): json is Record<string, unknown> => typeof json === 'object' && json !== null && !Array.isArray(json);

/** Why a parsed 200 body does not name a stored `format` image, or null when its photoUrl does. */
export function photoUrlProblem(json: unknown, format: ImageFormat): string | null {
  if (!isObject(json)) return 'JSON body is not an object';
  const url = json.photoUrl;
  if (typeof url !== 'string' || url.length === 0) return 'the answer has no photoUrl';
  const path = url.split(/[?#]/, 1)[0] ?? '';
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  if (extension !== undefined && EXTENSIONS[format].includes(extension)) return null;
  // Masked before the cut: a token cut in two would not be found afterwards.
  return `photoUrl "${redactedStart(url, 120).slice(0, 120)}" does not name a ${format} image`;
}

/**
 * Records one answer's evidence: photo.upload for a default-part upload (200, the five
 * headers, a JSON object naming the photo), photo.fieldname.override for an override upload
 * (200 and a JSON object naming the photo). Returns the failure codes the generic
 * inspection did not already give (`body-invalid` for a non-object, `photo-url`).
 */
export function judgePhoto(metrics: MetricSet, upload: PhotoUpload, inspection: Inspection, label: string): FailureCode[] {
  const answered = inspection.status === 200 && inspection.json !== undefined;
  const urlProblem = answered ? photoUrlProblem(inspection.json, upload.format) : null;
  const extra: FailureCode[] = urlProblem === null ? [] : [isObject(inspection.json) ? 'photo-url' : 'body-invalid'];
  if (upload.override) {
    const reason =
      inspection.status !== 200 ? `status ${inspection.status} (expected 200)` : inspection.json === undefined ? 'body is not valid JSON' : urlProblem;
    recordEvidence(metrics, 'photo.fieldname.override', reason === null ? null : `${label}: ${reason}`);
  } else {
    const failed = inspection.failures.length > 0 || urlProblem !== null;
    // The reason is only put into words for an answer that failed: this runs on every upload.
    const reason = failed ? [describeInspection(inspection), urlProblem].filter((part) => part).join('; ') : '';
    recordEvidence(metrics, 'photo.upload', failed ? `${label}: ${reason}` : null);
  }
  return extra;
}
