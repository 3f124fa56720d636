/** Bad input never crashes the target: a batch of broken requests, then a stream still works. */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { JPEG, MULTIPART_TYPE, multipart } from '../support/multipart.js';
import { call, eventually, openStream, participant, startTestTarget } from '../support/target-helpers.js';

let target: RunningTarget;
beforeAll(async () => {
  target = await startTestTarget({ keepAliveMs: 100 });
});
afterAll(() => target.close());

/** Writes raw bytes, optionally hangs up early, and returns what the server answered. */
function raw(bytes: string | Buffer, options: { hangUp?: boolean } = {}): Promise<string> {
  const url = new URL(target.url);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(answer));
    socket.on('connect', () => {
      socket.write(bytes);
      if (options.hangUp) socket.destroy();
    });
    setTimeout(() => socket.destroy(), 2_000).unref();
  });
}

const auth = () => `X-API-Key: ${target.fixtures.apiKey}\r\nAuthorization: Bearer ${participant(target).token}\r\n`;
const statusOf = (answer: string): number => Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0);

describe('bad input', () => {
  it('answers broken requests with problem+json where HTTP allows, and keeps serving streams', async () => {
    const p = participant(target);
    const msgPath = `/api/v1/participants/${p.userId}/chat_messages`;
    const photoPath = `/api/v1/participants/${p.userId}/profile_photo`;
    const fullForm = multipart([{ name: 'filename', filename: 'a.jpg', data: JPEG(64 * 1024) }]);
    const answers = await Promise.all([
      // Huge headers: 431 problem+json from the clientError handler.
      raw(`GET ${msgPath} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`),
      // Not HTTP at all.
      raw('GARBAGE\r\n\r\n'),
      // Broken chunked framing.
      raw(`POST ${msgPath} HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`),
      // Bad percent-encoding in the path.
      raw(`GET /api/v1/participants/%E0%A4%A/stream HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`),
      // Malformed JSON and a JSON body with the wrong type.
      raw(`POST ${msgPath} HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: 9\r\nConnection: close\r\n\r\n{"text":[`),
      raw(`POST ${msgPath} HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi`),
      // Unknown path; a method the HTTP parser does not know (400 from clientError).
      raw(`GET /api/v1/nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
      raw(`BREW /api/v1/tags HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
      // A multipart body whose sender hangs up halfway, and one announced longer than sent.
      raw(
        Buffer.concat([
          Buffer.from(`PATCH ${photoPath} HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: ${MULTIPART_TYPE}\r\nContent-Length: ${fullForm.length}\r\n\r\n`),
          fullForm.subarray(0, 20_000),
        ]),
        { hangUp: true },
      ),
      raw(`POST ${msgPath} HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{"chat`, { hangUp: true }),
    ]);
    const statuses = answers.map(statusOf);
    expect(statuses).toEqual([431, 400, 400, 400, 400, 415, 404, 400, 0, 0]);
    for (const answer of answers.filter((a) => a !== '')) {
      expect(answer).toMatch(/content-type: application\/problem\+json/i);
      expect(answer).toMatch(/access-control-allow-origin: \*/i);
    }
    // A truncated multipart body (complete request, broken form) is a 400 problem too.
    const truncated = await call(target, 'PATCH', `/participants/${p.userId}/profile_photo`, {
      token: p.token,
      body: fullForm.subarray(0, fullForm.length - 30),
      headers: { 'content-type': MULTIPART_TYPE },
    });
    expect(truncated.status).toBe(400);

    const stream = await openStream(target, `/participants/${p.userId}/chat_sessions/${p.chatSessionIds[0]}/stream`, p.token);
    try {
      expect(stream.status).toBe(200);
      await stream.waitFor((f) => f.length >= 1, 1_000);
      expect(stream.frames[0]?.json?.eventType).toBe('KEEP_ALIVE');
    } finally {
      stream.close();
    }
    expect(await eventually(() => target.stats().openStreams === 0 && target.stats().streamHandles === 0)).toBe(true);
  });
});
