/**
 * A request kind's judge (docs/design.md §2.15) on the body of an expected answer: a kind that
 * gives a schema or a JSON media type expects a JSON body; a kind that says neither expects
 * nothing of the body.
 */
import { describe, expect, it } from 'vitest';
import type { RequestExpectation } from '../../../src/contract/profile/profile.js';
import { expectationJudge } from '../../../src/drivers/requests/request-expectations.js';

const expectation = (over: Partial<RequestExpectation>): RequestExpectation => ({ status: [200], mediaType: null, schema: null, headers: [], ...over });
const answer = (body: string, contentType = 'application/json; charset=utf-8') => ({ status: 200, headers: { 'content-type': contentType }, body });

describe('a request kind judging the body of an expected answer', () => {
  it('fails a body cut short when the kind expects a JSON media type, with no schema', () => {
    const judge = expectationJudge(expectation({ mediaType: 'application/json' }), 'test');
    expect(judge(answer('{"id":"cs-1","na')).failures).toEqual(['body-invalid']);
    expect(judge(answer('{"id":"cs-1"}')).failures).toEqual([]);
  });

  it('takes a structured +json type as JSON too', () => {
    const judge = expectationJudge(expectation({ mediaType: 'application/merge-patch+json' }), 'test');
    expect(judge(answer('[1,', 'application/merge-patch+json')).failures).toEqual(['body-invalid']);
  });

  it('fails a body that is not JSON, and one the schema refuses, when a schema is given', () => {
    const judge = expectationJudge(expectation({ schema: { type: 'object', required: ['id'] } }), 'test');
    expect(judge(answer('<html>')).failures).toEqual(['body-invalid']);
    expect(judge(answer('{"name":"x"}')).failures).toEqual(['body-schema']);
  });

  it('implies nothing of the body of a kind that names no JSON media type and no schema', () => {
    expect(expectationJudge(expectation({}), 'test')(answer('not json')).failures).toEqual([]);
    const csv = expectationJudge(expectation({ mediaType: 'text/csv' }), 'test');
    expect(csv(answer('a,b\n1,2', 'text/csv')).failures).toEqual([]);
  });
});
