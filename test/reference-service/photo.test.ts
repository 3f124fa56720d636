import { connect } from 'node:net';
import { FormData } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { JPEG, MULTIPART_TYPE, multipart, NOT_AN_IMAGE, type Part, PNG, partHead, WEBP } from '../support/multipart.js';
import { call, FIVE_HEADERS, participant, problemOf, startTestTarget } from '../support/target-helpers.js';

const MIB = 1024 * 1024;
let target: RunningTarget;
beforeAll(async () => {
  target = await startTestTarget();
});
afterAll(() => target.close());

const photoPath = (index = 0) => `/participants/${participant(target, index).userId}/profile_photo`;

function upload(parts: Part[], token = participant(target).token, index = 0) {
  return call(target, 'PATCH', photoPath(index), { token, body: multipart(parts), headers: { 'content-type': MULTIPART_TYPE } });
}

describe('PATCH profile_photo', () => {
  it('accepts the default `filename` part (undici FormData) with 200 {userId, photoUrl} and the five headers', async () => {
    const form = new FormData();
    form.append('filename', new Blob([JPEG()], { type: 'image/jpeg' }), 'me.jpg');
    const p = participant(target);
    const result = await call(target, 'PATCH', photoPath(), { token: p.token, body: form });
    expect(result.status).toBe(200);
    for (const name of FIVE_HEADERS) expect(result.headers[name], name).toBeTruthy();
    expect(result.headers['content-type']).toMatch(/^application\/json/);
    const body = result.body as { userId: string; photoUrl: string };
    expect(body.userId).toBe(p.userId);
    expect(body.photoUrl).toMatch(/\.jpg$/);
    const after = await call(target, 'GET', `/participants/${p.userId}`, { token: p.token });
    expect((after.body as { photoUrl: string }).photoUrl).toBe(body.photoUrl);
    const session = await call(target, 'GET', `/participants/${p.userId}/chat_sessions/${p.chatSessionIds[0]}`, { token: p.token });
    expect((session.body as { members: Array<{ id: string; photoUrl: string }> }).members.find((m) => m.id === p.userId)?.photoUrl).toBe(body.photoUrl);
  });

  it.each([
    ['PNG', PNG(), 'png'],
    ['WebP', WEBP(), 'webp'],
  ])('accepts %s by magic bytes', async (_kind, data, extension) => {
    const result = await upload([{ name: 'filename', filename: 'x.bin', data }]);
    expect(result.status).toBe(200);
    expect((result.body as { photoUrl: string }).photoUrl.endsWith(`.${extension}`)).toBe(true);
  });

  it('honours the `name` override when it comes before the file part', async () => {
    const result = await upload([
      { name: 'name', data: 'avatar' },
      { name: 'filename', filename: 'decoy.txt', data: NOT_AN_IMAGE() },
      { name: 'avatar', filename: 'a.png', data: PNG() },
    ]);
    expect(result.status).toBe(200);
  });

  it('honours the `name` override when it comes after the file part', async () => {
    const result = await upload([
      { name: 'avatar', filename: 'a.webp', data: WEBP() },
      { name: 'name', data: 'avatar' },
    ]);
    expect(result.status).toBe(200);
    expect((result.body as { photoUrl: string }).photoUrl).toMatch(/\.webp$/);
  });

  it('reads only the overridden part: a `filename` image does not count when `name` names another part', async () => {
    const result = await upload([
      { name: 'filename', filename: 'a.jpg', data: JPEG() },
      { name: 'name', data: 'missing' },
    ]);
    expect(result.status).toBe(400);
    expect(problemOf(result).detail).toMatch(/"missing"/);
  });

  it.each([
    ['no file part at all', [{ name: 'other', data: 'text' }], 400],
    ['an empty file part', [{ name: 'filename', filename: 'empty.jpg', data: Buffer.alloc(0) }], 400],
    ['the image sent as a text field', [{ name: 'filename', data: 'not a file' }], 400],
    ['a GIF (not JPEG/PNG/WebP)', [{ name: 'filename', filename: 'a.gif', data: NOT_AN_IMAGE() }], 415],
  ] as Array<[string, Part[], number]>)('refuses %s', async (_what, parts, status) => {
    const result = await upload(parts);
    expect(result.status).toBe(status);
    expect(result.headers['content-type']).toMatch(/^application\/problem\+json/);
    for (const name of FIVE_HEADERS) expect(result.headers[name], name).toBeTruthy();
  });

  it('accepts exactly 5 MiB and refuses 5 MiB + 1 byte with 413', async () => {
    expect((await upload([{ name: 'filename', filename: 'a.jpg', data: JPEG(5 * MIB) }])).status).toBe(200);
    const over = await upload([{ name: 'filename', filename: 'a.jpg', data: JPEG(5 * MIB + 1) }]);
    expect(over.status).toBe(413);
    expect(over.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('refuses a non-multipart body with 415 and a truncated multipart body with 400', async () => {
    const p = participant(target);
    const json = await call(target, 'PATCH', photoPath(), { token: p.token, json: { filename: 'x' } });
    expect(json.status).toBe(415);
    const full = multipart([{ name: 'filename', filename: 'a.jpg', data: JPEG(4096) }]);
    const truncated = await call(target, 'PATCH', photoPath(), { token: p.token, body: full.subarray(0, 1000), headers: { 'content-type': MULTIPART_TYPE } });
    expect(truncated.status).toBe(400);
    expect(problemOf(truncated).detail).toMatch(/malformed/);
  });

  it("refuses another participant's photo with 403 and lets a coach change it", async () => {
    const parts: Part[] = [{ name: 'filename', filename: 'a.jpg', data: JPEG() }];
    expect((await upload(parts, participant(target, 1).token, 0)).status).toBe(403);
    expect((await upload(parts, target.fixtures.coachToken, 0)).status).toBe(200);
  });

  it('stops reading an oversized chunked upload soon after 5 MiB of the named part (413, connection closed)', async () => {
    const url = new URL(target.url);
    const p = participant(target);
    const socket = connect(Number(url.port), url.hostname);
    let sent = 0;
    let sentWhenAnswered = -1;
    let answer = '';
    socket.on('error', () => undefined); // the server closes while we still write
    socket.on('data', (chunk) => {
      if (sentWhenAnswered === -1) sentWhenAnswered = sent;
      answer += chunk.toString('latin1');
    });
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const chunk = (data: Buffer | string) => `${Buffer.byteLength(data).toString(16)}\r\n`;
    socket.write(
      `PATCH /api/v1${photoPath()} HTTP/1.1\r\nHost: ${url.host}\r\nX-API-Key: ${target.fixtures.apiKey}\r\n` +
        `Authorization: Bearer ${p.token}\r\nContent-Type: ${MULTIPART_TYPE}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const head = `${partHead({ name: 'name', data: '' })}pic\r\n${partHead({ name: 'pic', filename: 'big.jpg', data: '' })}`;
    socket.write(`${chunk(head) + head}\r\n`);
    const block = JPEG(256 * 1024);
    // Offer up to 40 MiB; the server must answer and close long before.
    while (sent < 40 * MIB && !socket.destroyed && sentWhenAnswered === -1) {
      const ok = socket.write(Buffer.concat([Buffer.from(chunk(block)), block, Buffer.from('\r\n')]));
      sent += block.length;
      if (!ok)
        await new Promise<void>((resolve) => {
          socket.once('drain', resolve);
          socket.once('close', resolve);
        });
    }
    await closed;
    expect(answer, answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/content-type: application\/problem\+json/i);
    expect(answer).toMatch(/connection: close/i);
    expect(sentWhenAnswered).toBeGreaterThan(0);
    // Socket buffers on both sides hold a few MiB; 40 MiB would mean the server read it all.
    expect(sentWhenAnswered).toBeLessThan(16 * MIB);
  });
});
