/**
 * The bounded body read (engine/bounded-body.ts) against real node:http servers through
 * undici: a body at the bound is read whole and decoded as undici's text() would, one past it
 * fails as body-too-large, and an endless body is cut with the connection after about the bound.
 */
import type { ServerResponse } from 'node:http';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { failureOfError } from '../../src/contract/failure-codes.js';
import { BodyTooLargeError, discardBounded, MAX_RESPONSE_BODY_BYTES, readBoundedText } from '../../src/engine/bounded-body.js';
import { startServer, type TestServer } from '../support/throughput-helpers.js';

const MiB = 1024 * 1024;
let server: TestServer | undefined;
const agent = new Agent();

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function answer(handler: (res: ServerResponse) => void) {
  server = await startServer((req, res) => {
    req.resume();
    handler(res);
  });
  return agent.request({ origin: server.url, path: '/', method: 'GET', bodyTimeout: 5_000 });
}

describe('bounded body reads', () => {
  it('the bound is 1 MiB', () => {
    expect(MAX_RESPONSE_BODY_BYTES).toBe(MiB);
  });

  it('reads a body of exactly the bound whole, chunked, as undici text() decodes it (BOM dropped)', async () => {
    const text = `\u00e9${'x'.repeat(1021)}`;
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    expect(bytes.length).toBe(1026);
    const response = await answer((res) => {
      res.writeHead(200);
      res.write(bytes.subarray(0, 4)); // splits the é
      setTimeout(() => res.end(bytes.subarray(4)), 20);
    });
    await expect(readBoundedText(response.body, bytes.length)).resolves.toBe(text);
  });

  it('fails one byte past the bound as body-too-large', async () => {
    const response = await answer((res) => res.writeHead(200, { 'content-length': 1025 }).end(Buffer.alloc(1025, 'y')));
    const read = readBoundedText(response.body, 1024);
    await expect(read).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(failureOfError(await read.catch((error: unknown) => error))).toBe('body-too-large');
  });

  it('cuts an endless body after about the bound and closes the connection: the target stops writing', async () => {
    let written = 0;
    let closed = false;
    const chunk = Buffer.alloc(64 * 1024, 'z');
    const response = await answer((res) => {
      res.writeHead(200);
      res.on('close', () => {
        closed = true;
      });
      const pump = (): void => {
        while (!res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      pump();
    });
    await expect(discardBounded(response.body)).rejects.toBeInstanceOf(BodyTooLargeError);
    await expect.poll(() => closed, { timeout: 2_000 }).toBe(true);
    // 1 MiB read, the rest of what was written held in socket buffers when the client let go.
    expect(written).toBeLessThan(16 * MiB);
  });

  it('settles at once on a body already closed before the read (aborted first), with its error', async () => {
    const response = await answer((res) => {
      res.writeHead(200);
      res.write('partial');
    });
    const aborted = new Promise<void>((resolve) => response.body.once('close', () => resolve()));
    response.body.on('error', () => undefined).destroy(new Error('cut by the end of the run'));
    await aborted;
    await expect(readBoundedText(response.body)).rejects.toThrow('cut by the end of the run');
  });

  it("passes the stream's own error through (a reset mid-body is net:, not body-too-large)", async () => {
    const response = await answer((res) => {
      res.writeHead(200, { 'content-length': 100_000 });
      res.write(Buffer.alloc(1000));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const error = await readBoundedText(response.body).catch((e: unknown) => e);
    expect(failureOfError(error)).toMatch(/^net:/);
  });
});
