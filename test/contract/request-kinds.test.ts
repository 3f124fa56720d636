/**
 * The `requests` section of a profile (docs/design.md §2.15): templates are data, checked at
 * load time, and every bad template, credential or schema is one ConfigError (exit 2) naming
 * the profile field. Also: the CLI says so in one line, and the mix splits its load by weight.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/contract/profile/load-profile.js';
import { compileTemplate, fillTemplate, jsonEscape } from '../../src/contract/profile/request-template.js';
import { runPlanOf } from '../../src/contract/profile/run-plan.js';
import { ConfigError } from '../../src/util/errors.js';
import { loadProfileText } from '../support/profile-text.js';
import { runCli } from '../support/run-cli.js';

const kind = (overrides: Record<string, unknown> = {}) => ({
  name: 'getSession',
  method: 'GET',
  path: '/participants/{userId}/chat_sessions/{sessionId}',
  ...overrides,
});
const withKinds = (kinds: unknown[], extra: Record<string, unknown> = {}) => ({
  name: 'kinds',
  duration: '2s',
  chatStreams: { enabled: false },
  requests: { ratePerSec: 10, kinds, ...extra },
});

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('request templates', () => {
  it('fills fixtures and generated values, escaping each for where it goes', () => {
    const parts = compileTemplate('/participants/{userId}/x/{seq}', 'path');
    const values: Record<string, string> = { userId: 'p 1/2', seq: '3' };
    expect(fillTemplate(parts, (name) => values[name] ?? '', encodeURIComponent)).toBe('/participants/p%201%2F2/x/3');
    const body = compileTemplate('{"name": "{userId}", "limit": {seq}}', 'body');
    expect(JSON.parse(fillTemplate(body, (name) => (name === 'userId' ? 'a"b' : '7'), jsonEscape))).toEqual({ name: 'a"b', limit: 7 });
  });

  it('refuses an unknown variable, naming the field and the known ones', () => {
    const message = messageOf(() => compileTemplate('/x/{userID}', 'p.json: requests.kinds[0].path'));
    expect(message).toMatch(/^p\.json: requests\.kinds\[0\]\.path: unknown variable \{userID\} \(known: \{userId\}/);
  });
});

describe('a profile with request kinds', () => {
  it('resolves each kind with its share of the mix and defaults', () => {
    const profile = loadProfileText(
      withKinds([kind({ weight: 3 }), kind({ name: 'createTags', method: 'POST', path: '/tags', credential: 'coach', body: { tags: ['{unique}'] } })]),
    );
    const [get, tags] = profile.requests!.kinds;
    expect(get).toMatchObject({
      name: 'getSession',
      share: 0.75,
      ratePerSec: 7.5,
      credential: 'participant',
      expect: { status: [200], mediaType: null, schema: null, headers: [] },
    });
    expect(tags).toMatchObject({ name: 'createTags', share: 0.25, ratePerSec: 2.5, credential: 'coach', body: { json: '{"tags":["{unique}"]}' } });
    // The plan shows each kind's rate, keyed requests.<name>.
    expect(runPlanOf(profile).scenarios.map((s) => [s.scenario, s.stages[0]!.from])).toEqual([
      ['requests.getSession', 7.5],
      ['requests.createTags', 2.5],
    ]);
  });

  it('apportions the mix’s in-flight bound and connections exactly, each kind at least one', () => {
    const weights = [5, 3, 1, 1];
    const open = loadProfileText(
      withKinds(
        weights.map((weight, i) => kind({ name: `k${i}`, weight })),
        { maxInFlight: 7 },
      ),
    );
    expect(open.requests!.kinds.map((k) => k.maxInFlight)).toEqual([3, 2, 1, 1]);
    const closed = loadProfileText(
      withKinds(
        weights.map((weight, i) => kind({ name: `k${i}`, weight })),
        { model: 'closed', connections: 20 },
      ),
    );
    expect(closed.requests!.kinds.map((k) => k.connections)).toEqual([9, 6, 3, 2]);
    expect(closed.requests!.kinds.reduce((sum, k) => sum + k.connections, 0)).toBe(20);
    // A kind with a load of its own keeps it and takes no part of the mix's.
    const mixed = loadProfileText(
      withKinds([kind({ name: 'a' }), kind({ name: 'own', load: { model: 'closed', connections: 9 } }), kind({ name: 'b' })], {
        model: 'closed',
        connections: 2,
      }),
    );
    expect(mixed.requests!.kinds.map((k) => k.connections)).toEqual([1, 9, 1]);
  });

  it.each([
    [{ model: 'closed', connections: 3 }, /requests\.connections: 3 cannot give each of the 4 weighted kinds one; raise it to 4/],
    [{ maxInFlight: 2 }, /requests\.maxInFlight: 2 cannot give each of the 4 weighted kinds one/],
  ])('refuses a mix %j too small for its weighted kinds', (extra, pattern) => {
    const kinds = [0, 1, 2, 3].map((i) => kind({ name: `k${i}` }));
    expect(messageOf(() => loadProfileText(withKinds(kinds, extra)))).toMatch(pattern);
  });

  it('switches every kind off with requests.enabled: false, own loads included', async () => {
    const { coreChecks } = await import('../../src/metrics/checks/verdict.js');
    const profile = loadProfileText(withKinds([kind(), kind({ name: 'own', load: { ratePerSec: 5 } })], { enabled: false }));
    expect(profile.requests!.kinds.map((k) => k.enabled)).toEqual([false, false]);
    expect(coreChecks(profile)).not.toContain('requests.expectations');
    expect(runPlanOf(profile).scenarios).toEqual([]);
  });

  it('leaves a profile without requests exactly as before: no requests field', () => {
    expect('requests' in loadProfileText({ name: 'plain', duration: '2s' })).toBe(false);
  });

  it.each([
    [
      'an unknown variable in a path',
      [kind({ path: '/participants/{user}' })],
      {},
      /test-profile\.json: requests\.kinds\[0\]\.path: unknown variable \{user\}/,
    ],
    [
      'an unknown variable in a header',
      [kind({ headers: { 'X-Trace': '{traceId}' } })],
      {},
      /test-profile\.json: requests\.kinds\[0\]\.headers\.X-Trace: unknown variable \{traceId\}/,
    ],
    [
      'a body that is not JSON after substitution',
      [kind({ method: 'POST', body: '{"limit": {seq}, }' })],
      {},
      /test-profile\.json: requests\.kinds\[0\]\.body: not JSON after substitution/,
    ],
    [
      'a setup value no setup request captures',
      [kind({ method: 'PUT', body: { tagIds: ['{setup.tagId}'] } })],
      {},
      /requests\.kinds\[0\]\.body: unknown variable \{setup\.tagId\} \(no setup request captures it; captured: none\)/,
    ],
    [
      'a bad JSON Schema',
      [kind({ expect: { schema: { type: 'thing' } } })],
      {},
      /test-profile\.json: requests\.kinds\[0\]\.expect\.schema: not a usable JSON Schema/,
    ],
    ['two kinds of one name', [kind(), kind()], {}, /requests\.kinds\[1\]\.name: "getSession" names two kinds/],
    ['a body on a GET', [kind({ body: { a: 1 } })], {}, /requests\.kinds\[0\]\.body: a GET request has no body/],
  ])('refuses %s, naming the field', (_what, kinds, extra, pattern) => {
    expect(messageOf(() => loadProfileText(withKinds(kinds, extra)))).toMatch(pattern);
  });

  it('refuses an unknown credential through the schema, naming the field', () => {
    expect(messageOf(() => loadProfileText(withKinds([kind({ credential: 'admin' })])))).toMatch(
      /\/requests\/kinds\/0\/credential must be equal to one of the allowed values/,
    );
  });

  it('refuses a threshold on a kind the profile does not have', () => {
    const file = { ...withKinds([kind()]), thresholds: ['requests.getSesion.latencyMs.p99 < 300'] };
    expect(messageOf(() => loadProfileText(file))).toMatch(/thresholds\[0\]: .*names no request kind "getSesion" \(kinds: getSession\)/);
  });

  it('ships api-mix: every endpoint the built-ins leave out, one kind each', async () => {
    const profile = await loadProfile('api-mix');
    const requests = profile.requests!.kinds.map((k) => `${k.method} ${k.path}`);
    expect(requests).toEqual([
      'POST /participants',
      'GET /participants/{userId}/chat_sessions/{sessionId}',
      'POST /participants/{userId}/chat_sessions/search',
      'POST /participants/{userId}/chat_messages/search',
      'POST /participants/{userId}/chat_unread_messages/search',
      'POST /participants/{userId}/enrolments',
      'PUT /participants/{userId}/activity_plan_cards/apc-{userNumber}-1-1/responses',
      'DELETE /participants/{userId}/activity_plan_cards/apc-{userNumber}-1-1/responses',
      'POST /tags',
      'PUT /tags/link/participant',
    ]);
    expect(profile.photoUpload.enabled || profile.tagLink.enabled || profile.chatStreams.enabled).toBe(false);
  });
});

describe('the CLI on a bad request kind', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'coachbench-kinds-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses --threshold on a kind the profile does not have, in one line', async () => {
    const path = join(dir, 'kinds.json');
    await writeFile(path, JSON.stringify(withKinds([kind()])));
    const { code, stderr } = await runCli(['run', '--profile', path, '--threshold', 'requests.nope.errorRate < 0.01', '--out', join(dir, 'never')]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('threshold "requests.nope.errorRate < 0.01": ');
    expect(stderr).toContain('has no request kind "nope" (kinds: getSession)');
  });

  it.each([
    ['unknown-variable', kind({ path: '/participants/{nobody}' }), 'requests.kinds[0].path: unknown variable {nobody}'],
    ['not-json', kind({ method: 'POST', body: '{"a": {seq}' }), 'requests.kinds[0].body: not JSON after substitution'],
  ])('%s: exit 2 with one line naming the field', async (name, bad, expected) => {
    const path = join(dir, `${name}.json`);
    await writeFile(path, JSON.stringify(withKinds([bad])));
    const { code, stderr } = await runCli(['plan', path]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(expected);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('a run split between processes', () => {
  it('gives each process its share of every kind’s load, as of photo upload’s', async () => {
    const { profileShare } = await import('../../src/orchestration/profile-share.js');
    const profile = loadProfileText(withKinds([kind({ weight: 3 }), kind({ name: 'closed', load: { model: 'closed', connections: 4 } })]));
    const [open, closed] = profileShare(profile, 0, 2).requests!.kinds;
    // The only weighted kind takes the whole mix (10 req/s); each of two processes half of it.
    expect(open).toMatchObject({ share: 1, ratePerSec: 5, rampToPerSec: 5 });
    expect(closed).toMatchObject({ model: 'closed', connections: 2 });
    // The templates and expectations are every process's.
    expect(open!.path).toBe(profile.requests!.kinds[0]!.path);
  });
});
