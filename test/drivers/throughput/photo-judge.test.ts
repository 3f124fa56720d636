/**
 * photo.upload and photo.fieldname.override pass only on an answer that names the stored
 * photo: 200, a JSON object whose photoUrl has the extension of the uploaded image's format.
 * Against real node:http servers on 127.0.0.1 that answer 200 with something else.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { photoUploadScenario, probesScenario } from '../../../src/drivers/throughput/index.js';
import { photoUrlProblem, urlExtension } from '../../../src/drivers/throughput/photo-judge.js';
import { buildPhotoUploadSummary } from '../../../src/metrics/throughput-summary.js';
import { checksOf, GOOD_HEADERS, photoAnswer, readBody, startServer, testProfile, testRun } from '../../support/throughput-helpers.js';

const fixtures = {
  apiKey: 'key-0001',
  participants: [1, 2].map((i) => ({ userId: `p-${i}`, token: `token-${i}`, chatSessionIds: [`cs-${i}`] })),
};

/** A photo endpoint answering every upload 200 with `answer(body)` as application/json and the five headers. */
async function runAgainst(answer: (upload: Buffer) => Buffer | string, formats: Array<'jpeg' | 'png' | 'webp'> = ['jpeg', 'png', 'webp']) {
  const server = await startServer((req, res) => {
    void readBody(req).then((upload) => {
      const body = answer(upload);
      res.writeHead(200, { ...GOOD_HEADERS, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  try {
    const profile = testProfile(600, { ratePerSec: 30, overrideShare: 0.5, formats }, { enabled: false });
    const total = await testRun(server.url, fixtures, profile).run(probesScenario, photoUploadScenario);
    return { checks: checksOf(total), summary: buildPhotoUploadSummary(total, profile.photoUpload) };
  } finally {
    await server.close();
  }
}

describe('photo answers', () => {
  it('200 with 1,000 random bytes fails photo.upload and photo.fieldname.override alike', async () => {
    const { checks, summary } = await runAgainst(() => randomBytes(1_000));
    expect(checks['photo.upload'].status).toBe('fail');
    expect(checks['photo.fieldname.override'].status).toBe('fail');
    expect(checks['photo.fieldname.override'].detail).toMatch(/body is not valid JSON/);
    expect(summary.errorsByKind['body-invalid']).toBe(summary.requests);
  });

  it('a JSON answer without photoUrl, or naming another format, fails both under photo-url', async () => {
    const bare = await runAgainst(() => JSON.stringify({ ok: true }));
    expect(bare.checks['photo.upload'].status).toBe('fail');
    expect(bare.checks['photo.fieldname.override'].status).toBe('fail');
    expect(bare.checks['photo.fieldname.override'].detail).toMatch(/the answer has no photoUrl/);
    expect(bare.summary.errorsByKind['photo-url']).toBe(bare.summary.requests);

    // PNG uploads answered with a .jpg URL: the target did not store what was sent.
    const alwaysJpeg = await runAgainst(() => JSON.stringify({ userId: 'p-1', photoUrl: 'https://photos.example/p-1.jpg' }), ['png']);
    expect(alwaysJpeg.checks['photo.fieldname.override'].status).toBe('fail');
    expect(alwaysJpeg.checks['photo.fieldname.override'].detail).toMatch(/does not name a png image/);
    expect(alwaysJpeg.checks['photo.upload'].status).toBe('fail');
  });

  it('the right photoUrl for every format passes both, resting on every upload', async () => {
    const { checks, summary } = await runAgainst((upload) => JSON.stringify(photoAnswer(upload)));
    expect(summary.errors).toBe(0);
    expect(checks['photo.upload'].status).toBe('pass');
    expect(checks['photo.fieldname.override'].status).toBe('pass');
    // The load's override uploads plus the probe's one.
    expect(checks['photo.fieldname.override'].observed).toBe(summary.overrideRequests + 1);
  });
});

describe('photoUrlProblem', () => {
  it.each([
    [{ photoUrl: 'https://x/p/1.jpg' }, 'jpeg', null],
    [{ photoUrl: 'https://x/p/1.JPEG?v=2' }, 'jpeg', null],
    [{ photoUrl: 'https://x/p/1.webp#top' }, 'webp', null],
    [{ photoUrl: 'https://x/p/1.png' }, 'jpeg', 'photoUrl "https://x/p/1.png" does not name a jpeg image'],
    [{ photoUrl: 'https://x/p/1' }, 'png', 'photoUrl "https://x/p/1" does not name a png image'],
    [{ photoUrl: '' }, 'png', 'the answer has no photoUrl'],
    [{ photoUrl: 7 }, 'png', 'the answer has no photoUrl'],
    [['https://x/p/1.png'], 'png', 'JSON body is not an object'],
    [null, 'png', 'JSON body is not an object'],
  ] as const)('%j as %s → %s', (json, format, problem) => {
    expect(photoUrlProblem(json, format)).toBe(problem);
  });
});

describe('urlExtension', () => {
  it.each([
    ['https://x/p/1.jpg', 'jpg'],
    ['https://x/p/1.JPEG?v=2.png', 'jpeg'],
    ['https://x/p/1.webp#a.png', 'webp'],
    ['https://x/p/1.tar.gz', 'gz'],
    ['https://x/p/1', null],
    ['https://x/p/1.', null],
    ['https://x/p/1.jp-g', null],
    ['https://x/p.d/1', null],
    ['?x.jpg', null],
    ['.png', 'png'],
  ] as const)('%s → %s (as the path-before-query regular expression reads it)', (url, extension) => {
    expect(urlExtension(url)).toBe(extension);
    const path = url.split(/[?#]/, 1)[0] ?? '';
    expect(/\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? null).toBe(extension);
  });
});
