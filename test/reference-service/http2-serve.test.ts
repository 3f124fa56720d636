/**
 * The reference target over HTTP/2 (docs/target.md "HTTP/2"): over TLS it offers h2 and
 * HTTP/1.1 in ALPN and answers both; in plain text it speaks h2c with prior knowledge only.
 */
import type { TLSSocket } from 'node:tls';
import { Agent, buildConnector, Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTarget } from '../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { API, participant } from '../support/target-helpers.js';

let https: RunningTarget;
let h2c: RunningTarget;

beforeAll(async () => {
  https = await startTarget({ participants: 3, keepAliveMs: 200, tls: 'self-signed', http2: true });
  h2c = await startTarget({ participants: 3, keepAliveMs: 200, http2: true });
});
afterAll(async () => {
  await https.close();
  await h2c.close();
});

/** GETs a participant through a dispatcher whose connections report their ALPN protocol. */
async function protocolOfAnswer(target: RunningTarget, allowH2: boolean): Promise<{ status: number; protocol: string }> {
  let protocol = '';
  const connect = buildConnector({ ca: [target.certificate!], allowH2 } as buildConnector.BuildOptions);
  const agent = new Agent({
    allowH2,
    connect: (options, callback) =>
      connect(options, (error, socket) => {
        if (socket) protocol = String((socket as TLSSocket).alpnProtocol);
        (callback as (e: Error | null, s: unknown) => void)(error, socket);
      }),
  });
  const me = participant(target);
  const answer = await agent.request({
    origin: target.url,
    path: `${API}/participants/${me.userId}`,
    method: 'GET',
    headers: { authorization: `Bearer ${me.token}`, 'x-api-key': target.fixtures.apiKey },
  });
  await answer.body.dump();
  await agent.close();
  return { status: answer.statusCode, protocol };
}

describe('serve --http2', () => {
  it('over TLS answers an h2 client over h2 and an HTTP/1.1 client over HTTP/1.1', async () => {
    expect(await protocolOfAnswer(https, true)).toEqual({ status: 200, protocol: 'h2' });
    expect(await protocolOfAnswer(https, false)).toEqual({ status: 200, protocol: 'http/1.1' });
  });

  it('in plain text speaks h2c to a client with prior knowledge, and nothing to an HTTP/1.1 client', async () => {
    const me = participant(h2c);
    const headers = { authorization: `Bearer ${me.token}`, 'x-api-key': h2c.fixtures.apiKey };
    const client = new Client(h2c.url, { allowH2: true, h2Options: { useH2c: true } });
    const answer = await client.request({ path: `${API}/participants/${me.userId}`, method: 'GET', headers });
    expect(answer.statusCode).toBe(200);
    await answer.body.dump();
    await client.close();
    const h1 = new Client(h2c.url, { allowH2: false });
    await expect(h1.request({ path: `${API}/participants/${me.userId}`, method: 'GET', headers })).rejects.toThrow();
    await h1.destroy();
  });
});
