/**
 * The event id a stream keeps and the Last-Event-ID it sends back (engine/last-event-id.ts):
 * tables, with undici and a node:http server as the judges of what goes on the wire.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptEventId, lastEventIdHeader, MAX_EVENT_ID_BYTES } from '../../src/engine/last-event-id.js';
import { startServer, type TestServer } from '../support/throughput-helpers.js';

let echo: TestServer;

beforeAll(async () => {
  // Answers with the bytes of the Last-Event-ID it received (node:http reads header bytes as Latin-1).
  echo = await startServer((req, res) => res.end(Buffer.from(String(req.headers['last-event-id']), 'latin1')));
});

afterAll(() => echo.close());

/** The bytes a server receives when undici sends `value`. */
async function bytesOnTheWire(value: string): Promise<Buffer> {
  const response = await request(echo.url, { headers: { 'last-event-id': value } });
  return Buffer.from(await response.body.arrayBuffer());
}

describe('Last-Event-ID header values', () => {
  it('the bound is 1 KiB of UTF-8', () => {
    expect(MAX_EVENT_ID_BYTES).toBe(1024);
  });

  it.each([
    ['42', '42'],
    ['msg-42 with spaces', 'msg-42 with spaces'],
    // Outside Latin-1: its UTF-8 bytes, one character per byte (a browser sends the same bytes).
    ['msg-✓-42', 'msg-\u00e2\u009c\u0093-42'],
    ['é', '\u00c3\u00a9'],
    ['😀', '\u00f0\u009f\u0098\u0080'],
    ['9'.repeat(MAX_EVENT_ID_BYTES), '9'.repeat(MAX_EVENT_ID_BYTES)],
  ])('%j goes back as its UTF-8 bytes', async (id, value) => {
    expect(lastEventIdHeader(id)).toEqual({ ok: true, value });
    expect((await bytesOnTheWire(value)).toString('utf8')).toBe(id);
  });

  it('the id as it stands is what undici refuses (the failure this form avoids)', async () => {
    await expect(bytesOnTheWire('msg-✓-42')).rejects.toMatchObject({ code: 'UND_ERR_INVALID_ARG' });
    await expect(bytesOnTheWire('msg-\u0001-42')).rejects.toMatchObject({ code: 'UND_ERR_INVALID_ARG' });
  });

  it.each([
    ['msg-\u0001-42', /control character/],
    ['a\u007fb', /control character/],
    ['line\u000bbreak', /control character/],
    ['9'.repeat(MAX_EVENT_ID_BYTES + 1), /longer than 1024 bytes/],
    // Under the bound in characters, over it in bytes.
    ['✓'.repeat(400), /longer than 1024 bytes/],
  ])('%j cannot go back', (id, reason) => {
    const header = lastEventIdHeader(id);
    expect(header.ok).toBe(false);
    expect(header.ok ? '' : header.reason).toMatch(reason);
  });
});

describe('the kept event id', () => {
  it('keeps ids up to the bound as they are', () => {
    for (const id of ['', '7', 'msg-✓-42', 'x'.repeat(MAX_EVENT_ID_BYTES)]) expect(keptEventId(id)).toBe(id);
  });

  it('keeps only enough of a longer id to show it is too long', () => {
    const kept = keptEventId('y'.repeat(1024 * 1024));
    expect(kept).toHaveLength(MAX_EVENT_ID_BYTES + 1);
    expect(lastEventIdHeader(kept).ok).toBe(false);
  });
});
