import { describe, expect, it } from 'vitest';
import { headersFromRaw, inspectResponse, normaliseHeaders, type ResponseView, statusReason } from '../../../src/drivers/throughput/response-check.js';
import { judgeTags, tagIds } from '../../../src/drivers/throughput/tag-workload.js';
import { evidenceFailures, evidenceRuns } from '../../../src/metrics/checks/evidence.js';
import { MetricSet } from '../../../src/metrics/metric-set.js';
import { TAG_EXTRA } from '../../../src/metrics/throughput-extra-names.js';
import { GOOD_HEADERS } from '../../support/throughput-helpers.js';

const view = (status: number, body: string, contentType = 'application/json', extra: Record<string, string> = GOOD_HEADERS): ResponseView => ({
  status,
  headers: { ...extra, 'content-type': contentType },
  body,
});

describe('inspectResponse', () => {
  it.each([
    ['healthy 200', view(200, '{"a":1}'), []],
    ['500 problem+json', view(500, '{"status":500}', 'application/problem+json; charset=utf-8'), ['status:500']],
    ['401 as text/plain', view(401, 'nope', 'text/plain'), ['status:401', 'problem-json']],
    ['problem+json with a non-JSON body', view(403, '<html>', 'application/problem+json'), ['status:403', 'problem-json']],
    ['200 with text/html', view(200, '{"a":1}', 'text/html'), ['content-type']],
    ['200 with a broken body', view(200, '{"a":', 'application/json'), ['body-invalid']],
    ['200 without Cache-Control', view(200, '{}', 'application/json', { ...GOOD_HEADERS, 'cache-control': '' }), ['headers-missing']],
    ['200 with +json', view(200, '[]', 'application/vnd.x+json'), []],
  ])('%s → %j', (_name, response, failures) => {
    expect(inspectResponse(response).failures).toEqual(failures);
  });

  it('names missing headers and judges problem+json only on errors', () => {
    const noHeaders = inspectResponse({ status: 200, headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(noHeaders.missingHeaders).toEqual(['access-control-allow-headers', 'access-control-allow-methods', 'access-control-allow-origin', 'cache-control']);
    expect(noHeaders.problemFailure).toBeUndefined();
    expect(inspectResponse(view(404, '{}', 'application/problem+json')).problemFailure).toBeNull();
    expect(inspectResponse(view(404, '{}', 'application/json')).problemFailure).toMatch(/not application\/problem\+json/);
  });

  it("names the layer that made a failing status: the API, a gateway's own page, or a proxy and what it says of the target", () => {
    const reason = (response: ResponseView): string => statusReason(inspectResponse(response));
    expect(reason(view(500, '{"status":500}', 'application/problem+json'))).toBe('status 500 (expected 200)');
    // A gateway's page: the target's status, with the page's words.
    expect(reason(view(502, '<html>', 'text/html', { server: 'nginx/1.22.1' }))).toBe(
      "status 502 (expected 200), a gateway's own page (text/html, Server: nginx/1.22.1)",
    );
    // A 502 in JSON is the API's own answer.
    expect(reason(view(502, '{"status":502}', 'application/problem+json'))).toBe('status 502 (expected 200)');
    const squid = (status: number): ResponseView => view(status, '<html>', 'text/html', { 'x-squid-error': 'ERR_CONNECT_FAIL 111' });
    expect(reason(squid(503))).toBe('proxy:503 (a proxy answered: it is up, but could not reach the target)');
    expect(reason(squid(504))).toBe('proxy:504 (a proxy answered: it is up, but had no answer in time from the target)');
    expect(reason(squid(403))).toBe('proxy:403 (a proxy answered: it refused the request)');
    expect(reason(squid(500))).toBe('proxy:500 (a proxy answered)');
  });

  it('normalises header maps from undici and autocannon', () => {
    expect(normaliseHeaders({ 'Content-Type': 'a', 'set-cookie': ['x', 'y'], gone: undefined })).toEqual({ 'content-type': 'a', 'set-cookie': 'x, y' });
  });

  it('reads the raw header lines a connection parsed into the same lower-cased record', () => {
    const raw = ['Content-Type', 'a', 'Set-Cookie', 'x', 'set-cookie', 'y', 'Cache-Control', 'no-store'];
    expect(headersFromRaw(raw)).toEqual({ 'content-type': 'a', 'set-cookie': 'x, y', 'cache-control': 'no-store' });
    expect(headersFromRaw(raw)).toEqual(normaliseHeaders({ 'Content-Type': 'a', 'set-cookie': ['x', 'y'], 'cache-control': 'no-store' }));
    // A name an object inherits is still a header of its own, not joined to the inherited value.
    expect(headersFromRaw(['Constructor', 'c', 'toString', 't'])).toEqual({ constructor: 'c', tostring: 't' });
    expect(headersFromRaw([])).toEqual({});
  });
});

describe('tag answers', () => {
  it.each([
    [['t1', 't2'], true],
    [[1, 2], true],
    [[], true],
    [['t1', 't1'], false],
    [['', 't2'], false],
    [{ ids: [] }, false],
    [[null], false],
  ])('tagIds(%j) valid: %s', (json, valid) => {
    expect(tagIds(json) !== null).toBe(valid);
  });

  const judge = (memo: { newNames: string[]; existing: string[] }, status: number, body: unknown) => {
    const metrics = new MetricSet();
    const verdict = judgeTags(metrics, memo, inspectResponse(view(status, JSON.stringify(body))), 'test');
    const check = (id: 'tags.link' | 'tags.existing.ignored') =>
      metrics.count(evidenceRuns(id)) === 0 ? 'none' : metrics.count(evidenceFailures(id)) > 0 ? 'fail' : 'pass';
    return { verdict, link: check('tags.link'), existing: check('tags.existing.ignored'), metrics };
  };

  it.each([
    ['one id per new name', { newNames: ['a', 'b'], existing: [] }, 200, ['1', '2'], 'pass', 'none', true],
    ['too few ids', { newNames: ['a', 'b'], existing: [] }, 200, ['1'], 'fail', 'none', false],
    ['extra ids without existing names', { newNames: ['a'], existing: [] }, 200, ['1', '2'], 'fail', 'none', true],
    ['existing names ignored', { newNames: ['c'], existing: ['a', 'b'] }, 200, ['3'], 'pass', 'pass', true],
    ['existing names returned again', { newNames: ['c'], existing: ['a', 'b'] }, 200, ['1', '2', '3'], 'pass', 'fail', true],
    // Linking nothing new shows no link: it is tags.existing.ignored evidence only.
    ['only existing, none returned', { newNames: [], existing: ['a'] }, 200, [], 'none', 'pass', true],
    ['only existing, refused', { newNames: [], existing: ['a'] }, 500, {}, 'fail', 'none', false],
    ['not an array', { newNames: ['a'], existing: ['b'] }, 200, { id: '1' }, 'fail', 'none', false],
    ['injected 500', { newNames: ['a'], existing: ['b'] }, 500, {}, 'fail', 'none', false],
  ] as const)('%s', (_name, memo, status, body, link, existing, created) => {
    const result = judge({ newNames: [...memo.newNames], existing: [...memo.existing] }, status, body);
    expect(result.link).toBe(link);
    expect(result.existing).toBe(existing);
    expect(result.verdict.created).toBe(created);
  });

  it('counts ids returned for existing names and the tags created', () => {
    const { metrics } = judge({ newNames: ['c'], existing: ['a', 'b'] }, 200, ['1', '2', '3']);
    expect(metrics.count(TAG_EXTRA.existingReturned)).toBe(2);
    expect(metrics.count(TAG_EXTRA.tagsCreated)).toBe(1);
  });
});
