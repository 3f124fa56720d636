/**
 * A JSON body whose bytes are not valid UTF-8 is refused with 400 problem+json (RFC 8259 §8.1
 * requires UTF-8), not decoded with replacement characters and stored. Raw bytes over a real
 * socket, so no client library re-encodes them.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { participant, startTestTarget } from '../support/target-helpers.js';

let target: RunningTarget;
beforeAll(async () => {
  target = await startTestTarget();
});
afterAll(() => target.close());

interface RawAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** POSTs `body` as application/json to the participant's chat_messages over a raw socket. */
function postRaw(body: Buffer): Promise<RawAnswer> {
  const p = participant(target);
  const url = new URL(target.url);
  const head =
    `POST /api/v1/participants/${p.userId}/chat_messages HTTP/1.1\r\nHost: ${url.host}\r\n` +
    `X-API-Key: ${target.fixtures.apiKey}\r\nAuthorization: Bearer ${p.token}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const answer = Buffer.concat(chunks).toString('utf8');
      const [headers = '', text = ''] = answer.split('\r\n\r\n', 2);
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0),
        contentType: /^content-type:\s*(.+)$/im.exec(headers)?.[1]?.trim() ?? '',
        body: text,
      });
    });
    socket.on('connect', () => socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body])));
    setTimeout(() => socket.destroy(new Error('no answer in 5 s')), 5_000).unref();
  });
}

const messageBody = (text: Buffer): Buffer =>
  Buffer.concat([Buffer.from(`{"chatSessionId":"${participant(target).chatSessionIds[0]}","text":"`), text, Buffer.from('"}')]);

describe('JSON bodies must be UTF-8', () => {
  it.each([
    ['a lone continuation byte', Buffer.from([0x80])],
    ['Latin-1 é', Buffer.from([0xe9])],
    ['a truncated 3-byte sequence', Buffer.from([0xe2, 0x82])],
    ['an overlong encoding of "/"', Buffer.from([0xc0, 0xaf])],
    ['a UTF-16 surrogate encoded in UTF-8', Buffer.from([0xed, 0xa0, 0x80])],
    ['0xFF', Buffer.from([0xff, 0xfe])],
  ])('answers 400 problem+json to %s', async (_name, bytes) => {
    const answer = await postRaw(messageBody(bytes));
    expect(answer.status, answer.body).toBe(400);
    expect(answer.contentType).toMatch(/^application\/problem\+json/);
    const problem = JSON.parse(answer.body) as { status: number; detail: string };
    expect(problem.status).toBe(400);
    expect(problem.detail).toMatch(/not valid UTF-8/);
  });

  it('accepts the same message in valid UTF-8 (multi-byte characters included)', async () => {
    const answer = await postRaw(messageBody(Buffer.from('é € 𝄞 ok', 'utf8')));
    expect(answer.status, answer.body).toBe(201);
    expect((JSON.parse(answer.body) as { text: string }).text).toBe('é € 𝄞 ok');
  });
});
