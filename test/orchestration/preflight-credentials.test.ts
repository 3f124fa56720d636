/**
 * The credential preflight (docs/design.md §2.2), through the CLI against `coachbench serve`
 * in its own process: a refused API key, an expired participant token and a refused coach
 * token each end the run with exit 3 before any load, naming the credential, where it came
 * from and what the target said; a token command's tokens are the ones tested.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixtures } from '../../src/contract/fixtures.js';
import { type Refusal, refusedCredential } from '../../src/orchestration/preflight-credentials.js';
import { runBin } from '../support/bin-helpers.js';
import { profileFile, quickProfile } from '../support/profiles.js';
import { type ServeProcess, startServe } from '../support/serve-process.js';

let dir: string;
let serve: ServeProcess;
let expiring: ServeProcess;
let fixtures: Fixtures;
let profile: string;
let tagProfile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-preflight-'));
  const common = ['--participants', '10', '--sessions', '2', '--keepalive', '500ms'];
  [serve, expiring] = await Promise.all([
    startServe(join(dir, 'fixtures.json'), common),
    startServe(join(dir, 'expiring.json'), [...common, '--token-ttl', '1s']),
  ]);
  fixtures = JSON.parse(await readFile(serve.fixtures, 'utf8')) as Fixtures;
  profile = await profileFile(dir, 'profile', quickProfile({ duration: '1s', chatStreams: { participants: 4, rampPerSec: 100, churnRatePerSec: 0 } }));
  tagProfile = await profileFile(
    dir,
    'tags',
    quickProfile({ duration: '1s', chatStreams: { enabled: false }, tagLink: { enabled: true, model: 'open', ratePerSec: 5 } }),
  );
  // Every token of the expiring target is past its second by the time the tests run.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
}, 60_000);
afterAll(() => Promise.all([serve?.stop(), expiring?.stop()]));

/** Writes a fixtures file of `base` with `change` applied; returns its path. */
async function fixturesWith(name: string, change: (copy: Fixtures) => void, base: Fixtures = fixtures): Promise<string> {
  const copy = structuredClone(base);
  change(copy);
  const path = join(dir, `${name}.json`);
  await writeFile(path, JSON.stringify(copy));
  return path;
}

const run = (target: string, fixturesPath: string, out: string, extra: string[] = [], env: Record<string, string> = {}) =>
  runBin(
    ['run', '-p', extra.includes('--tags') ? tagProfile : profile, '-t', target, '-f', fixturesPath, '-q', '-o', out, ...extra.filter((a) => a !== '--tags')],
    {
      env,
    },
  );

describe('a refused API key', () => {
  it('from the fixtures file: exit 3 before any load, quoting the target', async () => {
    const file = await fixturesWith('wrong-key', (copy) => {
      copy.apiKey = 'ak_wrong';
    });
    const out = join(dir, 'wrong-key-out');
    const result = await run(serve.url, file, out);
    expect(result.code).toBe(3);
    expect(result.stderr.trim()).toBe(
      `coachbench: the target refused the API key (from ${file} ("apiKey")): 401 Unauthorized, title "Unauthorized", ` +
        'detail "the X-API-Key header is not valid"; check the key',
    );
    expect(existsSync(join(out, 'report.json'))).toBe(false);
    expect(result.stderr).not.toContain('ak_wrong');
  }, 60_000);

  it('from COACHBENCH_API_KEY: names the variable', async () => {
    const file = await fixturesWith('no-key', (copy) => {
      delete copy.apiKey;
    });
    const result = await run(serve.url, file, join(dir, 'env-key-out'), [], { COACHBENCH_API_KEY: 'ak_from_env' });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^coachbench: the target refused the API key \(from COACHBENCH_API_KEY\): 401 Unauthorized/);
    expect(result.stderr).not.toContain('ak_from_env');
  }, 60_000);

  it('when the environment and the fixtures file both give one, says which is used, never the key; --quiet silences it', async () => {
    const env = { COACHBENCH_API_KEY: 'ak_not_this_one' };
    const [loud, quiet] = await Promise.all([
      runBin(['run', '-p', profile, '-t', serve.url, '-f', serve.fixtures, '-o', join(dir, 'both-keys-out')], { env }),
      run(serve.url, serve.fixtures, join(dir, 'both-keys-quiet-out'), [], env),
    ]);
    const note = `coachbench: API key: the one in ${serve.fixtures} ("apiKey"); COACHBENCH_API_KEY is set too and is not used`;
    expect(loud.stderr.split('\n')).toContain(note);
    for (const result of [loud, quiet]) {
      expect(result.stderr).not.toContain('ak_not_this_one');
      expect(result.stderr).not.toContain(fixtures.apiKey!);
      expect(result.code).toBeLessThanOrEqual(1);
    }
    // A line that only informs: --quiet keeps the closing lines and drops it (docs/design.md §2.2).
    expect(quiet.stderr).not.toContain('API key:');
    expect(quiet.stderr).toMatch(/^report: /m);
  }, 60_000);
});

describe('a refused token', () => {
  it('an expired participant token without --token-command: exit 3 naming the participant and the fixes', async () => {
    const out = join(dir, 'expired-out');
    const result = await run(expiring.url, expiring.fixtures, out);
    expect(result.code).toBe(3);
    expect(result.stderr.trim()).toBe(
      `coachbench: the target refused participant p-000001's token (from ${expiring.fixtures}): 401 Unauthorized, title "Unauthorized", ` +
        `detail "the bearer token expired"; renew the tokens: give --token-command CMD (docs/design.md §2.13), or refresh ${expiring.fixtures}`,
    );
    expect(existsSync(join(out, 'report.json'))).toBe(false);
  }, 60_000);

  it("tests the token command's tokens: a command printing a refused token is named", async () => {
    const result = await run(expiring.url, expiring.fixtures, join(dir, 'command-out'), ['--token-command', 'echo pt_not_issued']);
    expect(result.code).toBe(3);
    expect(result.stderr.trim()).toBe(
      `coachbench: the target refused participant p-000001's token (from --token-command): 401 Unauthorized, title "Unauthorized", ` +
        'detail "the bearer token is not valid"; the token command ran once before this check: check the tokens it prints',
    );
  }, 60_000);

  it('a refused coach token, when tags will use it: exit 3 naming the coach token', async () => {
    const file = await fixturesWith('wrong-coach', (copy) => {
      copy.coachToken = 'ct_wrong';
    });
    const result = await run(serve.url, file, join(dir, 'coach-out'), ['--tags']);
    expect(result.code).toBe(3);
    expect(result.stderr.trim()).toBe(
      `coachbench: the target refused the coach token (from ${file} ("coachToken")): 401 Unauthorized, title "Unauthorized", ` +
        `detail "the bearer token is not valid"; renew the tokens: give --token-command CMD (docs/design.md §2.13), or refresh ${file}`,
    );
  }, 60_000);
});

describe("the target's words", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // A target whose refusal carries a terminal escape and a bell in a long detail.
    server = createServer((req, res) => {
      if (req.method === 'OPTIONS') return void res.writeHead(204).end();
      res.writeHead(401, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ title: 'Unauthorized', detail: `\u001b[31mkey rejected\u0007 ${'x'.repeat(400)}`, status: 401 }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('are quoted with control characters made visible and cut to length', async () => {
    const result = await run(url, serve.fixtures, join(dir, 'escape-out'));
    expect(result.code).toBe(3);
    const line = result.stderr.trim();
    expect(line).not.toMatch(/\p{Cc}/u);
    expect(line).toContain('detail "\\x1b[31mkey rejected\\x07 xxx');
    expect(line).toMatch(/x…"; check the key, and renew the tokens/);
    // The detail was 400 characters and more: its quote is cut to 160 and an ellipsis.
    const detail = /detail "((?:[^"\\]|\\.)*)"/.exec(line)?.[1] ?? '';
    expect(detail.length).toBeGreaterThan(100);
    expect(detail.length).toBeLessThanOrEqual(161);
  }, 60_000);
});

describe('refusedCredential', () => {
  const refusal = (status: number, detail: string | null, challenge = ''): Refusal => ({ status, challenge, title: null, detail });
  it.each([
    [refusal(401, 'the X-API-Key header is not valid'), 'api-key'],
    [refusal(403, 'API key not allowed for this client'), 'api-key'],
    [refusal(401, 'the bearer token expired'), 'token'],
    [refusal(401, null, 'Bearer realm="api", error="invalid_token"'), 'token'],
    [refusal(403, 'a participant may only access its own /participants/{user_id} paths'), 'token'],
    [refusal(401, 'Unauthorized'), 'either'],
    [refusal(401, null), 'either'],
  ])('%j names %s', (given, expected) => {
    expect(refusedCredential(given)).toBe(expected);
  });
});
