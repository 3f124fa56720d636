/**
 * Photo probes: one default-part upload per profile format (photo.upload), one `name`
 * override with a decoy `filename` field (photo.fieldname.override: a target that ignores
 * the override reads the decoy and refuses it), and two uploads that must be refused with
 * problem+json (a non-image, and no image part at all).
 */
import type { FixtureParticipant } from '../../contract/fixtures.js';
import type { HttpRequestSpec } from './http-exchange.js';
import { buildImageCorpus, type ImageFormat } from './images/image-corpus.js';
import { buildMultipart, DEFAULT_PART, defaultPhotoBody, OVERRIDE_PART } from './multipart-body.js';
import { judgePhoto } from './photo-judge.js';
import { photoHeaders, photoPath } from './photo-workload.js';
import type { ProbeClient } from './probe-client.js';

/**
 * Probe images stay small: probes check behaviour, not throughput, and every run generates
 * them before its load starts, so their size is in every run's fixed CPU (docs/benchmarks.md, "Figures behind the code").
 */
const PROBE_IMAGE_BYTES = 4 * 1024;
const NOT_AN_IMAGE = Buffer.from('coachbench probe: this is plain text, not an image\n', 'latin1');

/** Default-part uploads (one per format), the override with a decoy, and two uploads that must be refused. */
export async function runPhotoProbes(probe: ProbeClient, participant: FixtureParticipant, apiKey: string, formats: readonly ImageFormat[]): Promise<void> {
  const images = buildImageCorpus(formats.length > 0 ? formats : ['jpeg'], [PROBE_IMAGE_BYTES], 97);
  const path = photoPath(probe.basePath, participant.userId);
  const patch = (contentType: string, body: Buffer, key: string | null = apiKey): HttpRequestSpec => ({
    method: 'PATCH',
    path,
    headers: photoHeaders(participant.token, key, contentType),
    body,
  });

  for (const image of images) {
    if (probe.stopped) return;
    const body = defaultPhotoBody(image);
    const label = `probe PATCH profile_photo (\`filename\` part, ${image.format})`;
    const outcome = await probe.send(patch(body.contentType, body.body), label);
    if (outcome.ok) judgePhoto(probe.metrics, { override: false, format: image.format }, outcome.inspection, label);
    else if (!outcome.cut) probe.fail('photo.upload', `${label}: no complete answer (${outcome.detail})`);
  }

  const first = images[0];
  if (first === undefined || probe.stopped) return;
  const override = buildMultipart([
    { name: 'name', data: Buffer.from(OVERRIDE_PART, 'latin1') },
    { name: DEFAULT_PART, data: Buffer.from('decoy: the image is in the part named by `name`', 'latin1') },
    { name: OVERRIDE_PART, fileName: first.fileName, contentType: first.mimeType, data: first.bytes },
  ]);
  const overrideLabel = 'probe PATCH profile_photo (`name` override, decoy `filename` field)';
  const outcome = await probe.send(patch(override.contentType, override.body), overrideLabel);
  if (outcome.ok) judgePhoto(probe.metrics, { override: true, format: first.format }, outcome.inspection, overrideLabel);
  else if (!outcome.cut) probe.fail('photo.fieldname.override', `${overrideLabel}: no complete answer (${outcome.detail})`);

  // Refusals: their value is the problem+json evidence the client records for every error answer.
  const notImage = buildMultipart([{ name: DEFAULT_PART, fileName: 'not-an-image.txt', contentType: 'image/jpeg', data: NOT_AN_IMAGE }]);
  const noImage = buildMultipart([{ name: 'note', data: Buffer.from('no image part in this form', 'latin1') }]);
  for (const [label, body] of [
    ['probe PATCH profile_photo (not an image)', notImage],
    ['probe PATCH profile_photo (no image part)', noImage],
  ] as const) {
    if (probe.stopped) return;
    const refused = await probe.send(patch(body.contentType, body.body), label);
    if (refused.ok && refused.inspection.status < 400) probe.log(`${label}: accepted with ${refused.inspection.status}`);
  }
}

/** A default-part upload without (or with a wrong) X-API-Key must be refused. */
export async function runPhotoAuthProbes(probe: ProbeClient, participant: FixtureParticipant, apiKey: string): Promise<void> {
  const [image] = buildImageCorpus(['jpeg'], [PROBE_IMAGE_BYTES], 98);
  if (image === undefined) return;
  const body = defaultPhotoBody(image);
  const path = photoPath(probe.basePath, participant.userId);
  const wrongKey = `${apiKey}-wrong`;
  for (const [label, key] of [
    ['probe PATCH profile_photo without X-API-Key', null],
    ['probe PATCH profile_photo with a wrong X-API-Key', wrongKey],
  ] as const) {
    if (probe.stopped) return;
    const spec: HttpRequestSpec = { method: 'PATCH', path, headers: photoHeaders(participant.token, key, body.contentType), body: body.body };
    await probe.expectRefused('auth.apikey.required', spec, label);
  }
}

/**
 * Why a 401 to `token` elsewhere says nothing of that other rule, or null when it does: the
 * same token, with the key, is sent on its participant's own photo upload, and only an accepted
 * upload shows the token was known. Not judged as an upload (photo.upload is the other probes').
 */
export async function tokenRefusedOwnUpload(probe: ProbeClient, participant: FixtureParticipant, token: string, apiKey: string): Promise<string | null> {
  const [image] = buildImageCorpus(['jpeg'], [PROBE_IMAGE_BYTES], 99);
  if (image === undefined || probe.stopped) return 'the run stopped first';
  const body = defaultPhotoBody(image);
  const spec: HttpRequestSpec = {
    method: 'PATCH',
    path: photoPath(probe.basePath, participant.userId),
    headers: photoHeaders(token, apiKey, body.contentType),
    body: body.body,
  };
  const outcome = await probe.send(spec, 'probe PATCH profile_photo (the same token, to tell a refused role from a refused token)', false);
  if (!outcome.ok) return outcome.cut ? 'the run stopped first' : `the same token's own photo upload got no complete answer (${outcome.detail})`;
  const { status } = outcome.inspection;
  return status >= 200 && status < 300 ? null : `the same token's own photo upload was answered ${status} too, so the token itself may be unknown or expired`;
}
