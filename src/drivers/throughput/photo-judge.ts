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
import { describeInspection, type Inspection, type Label, labelText, statusReason } from './response-check.js';

/** The extensions a stored photo's URL may end in, by the uploaded image's format. */
const EXTENSIONS: Readonly<Record<ImageFormat, readonly string[]>> = { jpeg: ['jpg', 'jpeg'], png: ['png'], webp: ['webp'] };

/** What went to the target: which part carried the image, and its format. */
export interface PhotoUpload {
  /** The image was in the part named by the `name` field, not in `filename`. */
  override: boolean;
  format: ImageFormat;
}

const isObject = (json: unknown): json is Record<string, unknown> => typeof json === 'object' && json !== null && !Array.isArray(json);

const isAlphanumeric = (code: number): boolean => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/**
 * The extension of a URL's path, lower-cased (the letters and digits after its last dot, before
 * any query or fragment), or null when the path does not end in one. Read by index, not with a
 * split and a regular expression: every upload's answer is judged here.
 */
export function urlExtension(url: string): string | null {
  let end = url.length;
  for (let i = 0; i < url.length; i++) {
    const code = url.charCodeAt(i);
    if (code === 63 /* ? */ || code === 35 /* # */) {
      end = i;
      break;
    }
  }
  let dot = end - 1;
  while (dot >= 0 && isAlphanumeric(url.charCodeAt(dot))) dot--;
  if (dot < 0 || dot === end - 1 || url.charCodeAt(dot) !== 46 /* . */) return null;
  return url.slice(dot + 1, end).toLowerCase();
}

/** Why a parsed 200 body does not name a stored `format` image, or null when its photoUrl does. */
export function photoUrlProblem(json: unknown, format: ImageFormat): string | null {
  if (!isObject(json)) return 'JSON body is not an object';
  const url = json.photoUrl;
  if (typeof url !== 'string' || url.length === 0) return 'the answer has no photoUrl';
  const extension = urlExtension(url);
  if (extension !== null && EXTENSIONS[format].includes(extension)) return null;
  // Masked before the cut: a token cut in two would not be found afterwards.
  return `photoUrl "${redactedStart(url, 120).slice(0, 120)}" does not name a ${format} image`;
}

/**
 * Records one answer's evidence: photo.upload for a default-part upload (200, the five
 * headers, a JSON object naming the photo), photo.fieldname.override for an override upload
 * (200 and a JSON object naming the photo). Returns the failure codes the generic
 * inspection did not already give (`body-invalid` for a non-object, `photo-url`). `label` names
 * the request in a failure's sample (a function: called only when one fails).
 */
export function judgePhoto(metrics: MetricSet, upload: PhotoUpload, inspection: Inspection, label: Label): readonly FailureCode[] {
  const answered = inspection.status === 200 && inspection.json !== undefined;
  const urlProblem = answered ? photoUrlProblem(inspection.json, upload.format) : null;
  const extra: readonly FailureCode[] = urlProblem === null ? NO_FAILURES : [isObject(inspection.json) ? 'photo-url' : 'body-invalid'];
  // The label and the reason are only put into words for an answer that failed: this runs on every upload.
  if (upload.override) {
    const reason = inspection.status !== 200 ? statusReason(inspection) : inspection.json === undefined ? 'body is not valid JSON' : urlProblem;
    recordEvidence(metrics, 'photo.fieldname.override', reason === null ? null : labelled(label, reason));
  } else {
    const failed = inspection.failures.length > 0 || urlProblem !== null;
    recordEvidence(metrics, 'photo.upload', failed ? labelled(label, [describeInspection(inspection), urlProblem].filter((part) => part).join('; ')) : null);
  }
  return extra;
}

const NO_FAILURES: readonly FailureCode[] = [];

const labelled = (label: Label, reason: string): string => `${labelText(label)}: ${reason}`;
