/**
 * The one failure vocabulary: the classifier against real client errors on 127.0.0.1
 * (refused, reset, headers and body timeouts through undici), the
 * pattern the report schema pins, and the page that documents every code.
 */
import { readFile } from 'node:fs/promises';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  FAILURE_CODE_PATTERN,
  FINDING_CODES,
  failureOfError,
  isFailureCode,
  neverReachedTarget,
  STREAM_END_CODES,
  statusFailure,
  TIMEOUT_PHASES,
} from '../../src/contract/failure-codes.js';
import { REPORT_SCHEMA_URL } from '../../src/contract/validate-report.js';
import { startServer } from '../support/throughput-helpers.js';

/** The error an undici exchange with `url` ends in (never resolves without one). */
async function undiciError(url: string, timeouts: { headersTimeout?: number; bodyTimeout?: number } = {}): Promise<unknown> {
  try {
    const response = await request(url, { headersTimeout: 2_000, bodyTimeout: 2_000, ...timeouts });
    await response.body.text();
  } catch (error) {
    return error;
  }
  throw new Error('the exchange succeeded');
}

describe('failureOfError on real client errors', () => {
  it('a refused connection is net:ECONNREFUSED', async () => {
    const server = await startServer(() => undefined);
    await server.close();
    expect(failureOfError(await undiciError(server.url))).toBe('net:ECONNREFUSED');
  });

  it('no headers in time is timeout:headers; headers then silence is timeout:body', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/body') res.writeHead(200, { 'content-type': 'text/plain' }).write('partial');
    });
    try {
      expect(failureOfError(await undiciError(`${server.url}/headers`, { headersTimeout: 200 }))).toBe('timeout:headers');
      expect(failureOfError(await undiciError(`${server.url}/body`, { bodyTimeout: 200 }))).toBe('timeout:body');
    } finally {
      await server.close();
    }
  });

  it('a socket destroyed mid-body is a net: code, and a valid one', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' }).write('cut short', () => res.socket?.destroy());
    });
    try {
      const failure = failureOfError(await undiciError(server.url));
      expect(failure).toMatch(/^net:/);
      expect(isFailureCode(failure)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('only a connection never made, or a proxy answering, is a request that never reached the target', async () => {
    const cut = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' }).write('cut short', () => res.socket?.destroy());
    });
    const dead = await startServer(() => undefined);
    await dead.close();
    try {
      expect(neverReachedTarget(failureOfError(await undiciError(dead.url)))).toBe(true);
      // The request was received and its answer begun: the target's failure, not load undriven.
      expect(neverReachedTarget(failureOfError(await undiciError(cut.url)))).toBe(false);
    } finally {
      await cut.close();
    }
    for (const code of ['net:ENOTFOUND', 'net:EHOSTUNREACH', 'timeout:connect', 'proxy:403', 'proxy:502']) expect(neverReachedTarget(code), code).toBe(true);
    for (const code of ['net:ECONNRESET', 'net:UND_ERR_SOCKET', 'timeout:headers', 'timeout:body', 'status:502', 'body-too-large'])
      expect(neverReachedTarget(code), code).toBe(false);
  });

  it('undici codes without a live socket, and errors without a code', () => {
    expect(failureOfError({ code: 'UND_ERR_CONNECT_TIMEOUT' })).toBe('timeout:connect');
    expect(failureOfError({ code: 'HPE_INVALID_CONSTANT' })).toBe('net:HPE_INVALID_CONSTANT');
    expect(failureOfError(new TypeError('boom'))).toBe('net:TypeError');
    expect(failureOfError(null)).toBe('net:unknown');
  });
});

describe('the vocabulary', () => {
  it.each([
    ['status:404', true],
    [statusFailure(503), true],
    ['net:ECONNRESET', true],
    ['proxy:403', true],
    ['proxy:', false],
    ['timeout:headers', true],
    ['frame-too-large', true],
    ['photo-url', true],
    // The 1.0 spellings are not codes any more.
    ['404', false],
    ['error:ECONNREFUSED', false],
    ['network:ECONNREFUSED', false],
    ['status-5xx', false],
    ['timeout', false],
    ['reset', false],
    ['net:', false],
  ])('%s is a code: %s', (text, valid) => {
    expect(isFailureCode(text)).toBe(valid);
  });

  it('the report schema keys openFailures, drops and errorsByKind by the same pattern', async () => {
    const schema = JSON.parse(await readFile(REPORT_SCHEMA_URL, 'utf8')) as {
      $defs: { failureCounts: { propertyNames: { anyOf: Array<{ pattern: string }> } } };
    };
    expect(schema.$defs.failureCounts.propertyNames.anyOf[0]?.pattern).toBe(FAILURE_CODE_PATTERN.source);
  });

  it('docs/failure-codes.md documents every fixed code and every prefix', async () => {
    const page = await readFile(new URL('../../docs/failure-codes.md', import.meta.url), 'utf8');
    const documented = [...page.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]);
    const expected = [
      'status:<nnn>',
      'proxy:<nnn>',
      'net:<errno>',
      ...TIMEOUT_PHASES.map((phase) => `timeout:${phase}`),
      ...STREAM_END_CODES,
      ...FINDING_CODES,
    ];
    expect([...documented].sort()).toEqual(expect.arrayContaining([...expected].sort()));
  });
});
