/**
 * A forward proxy's own answers are named as the proxy's (docs/design.md §2.12), against a
 * real tinyproxy in front of `coachbench serve`: its error page for a target it cannot reach
 * (`500 Unable to connect`, marked only by its own `Server: tinyproxy/…`) is exit 3 naming the
 * proxy before any load, never a target that answers 500; its `403 Filtered` to photo uploads
 * mid-run counts as `proxy:403`, and a refusal probe it answers is no refusal of the target's.
 * A proxy that cannot be reached at all is named, not the target behind it. Its own 401 when
 * its password changes mid-run is `proxy:401`, and renews no participant's token.
 *
 * Needs /usr/bin/tinyproxy (Debian package `tinyproxy`) and dist/ (npm run build).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allStreamsOpen, once, runBin } from '../support/bin-helpers.js';
import { profileFile, throughIntermediaryProfile } from '../support/profiles.js';
import { failures } from '../support/run-helpers.js';
import { readRunReport } from '../support/run-report.js';
import { type ServeProcess, startServe } from '../support/serve-process.js';
import { HAS_TINYPROXY, startTinyproxy, TINYPROXY, type Tinyproxy } from '../support/tinyproxy.js';

let dir: string;
let serve: ServeProcess;
let profile: string;

/** A loopback port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-proxy-answers-'));
  serve = await startServe(join(dir, 'fixtures.json'), ['--participants', '20', '--sessions', '2', '--keepalive', '1s']);
  profile = await profileFile(dir, 'profile', throughIntermediaryProfile());
}, 30_000);
afterAll(() => serve?.stop());

const run = (target: string, out: string, extra: string[] = [], env: Record<string, string> = {}) =>
  runBin(['run', '-p', profile, '-t', target, '-f', serve.fixtures, '--expect-keepalive', '1s', '-q', '-o', out, ...extra], { env });

describe.skipIf(!HAS_TINYPROXY)(`tinyproxy's own answers${HAS_TINYPROXY ? '' : ` (SKIPPED: no ${TINYPROXY}; apt-get install -y tinyproxy)`}`, () => {
  let proxy: Tinyproxy;
  let filtering: Tinyproxy;
  let guarded: Tinyproxy;
  beforeAll(async () => {
    [proxy, filtering, guarded] = await Promise.all([
      startTinyproxy(dir),
      startTinyproxy(dir, { filterUrls: ['/profile_photo$'] }),
      startTinyproxy(dir, { basicAuth: { user: 'bench', password: 'proxy-pw-7' } }),
    ]);
  }, 30_000);
  afterAll(() => Promise.all([proxy?.stop(), filtering?.stop(), guarded?.stop()]));

  it("credentials it does not take are the proxy's, not the API's: its own 401 and its 407, exit 3 naming the proxy", async () => {
    const port = new URL(guarded.url).port;
    // tinyproxy 1.11 answers a wrong password with its own 401 (and WWW-Authenticate), which once read as the API refusing the key or token.
    const wrong = await run(serve.url, join(dir, 'proxy-wrong-pw'), ['--proxy', `http://bench:not-it@127.0.0.1:${port}`]);
    expect(wrong.code, wrong.stderr).toBe(3);
    expect(wrong.stderr.trim()).toMatch(
      new RegExp(
        `^coachbench: proxy ${guarded.url} refused OPTIONS ${serve.url}/api/v1/participants: 401 Unauthorized \\(tinyproxy/[\\d.]+\\): ` +
          'it refused the credentials \\(check the user and password in the proxy URL\\)$',
      ),
    );
    const none = await run(serve.url, join(dir, 'proxy-no-pw'), ['--proxy', guarded.url]);
    expect(none.code, none.stderr).toBe(3);
    expect(none.stderr.trim()).toBe(
      `coachbench: proxy ${guarded.url} refused the request to ${serve.url}: 407 Proxy Authentication Required: ` +
        'it wants credentials (give them in the proxy URL, http://user:password@host:port)',
    );
    for (const result of [wrong, none]) expect(result.stderr).not.toContain('not-it');
    // With its credentials the run goes through it.
    const right = await run(serve.url, join(dir, 'proxy-pw'), ['--proxy', `http://bench:proxy-pw-7@127.0.0.1:${port}`]);
    expect(right.code, right.stderr).toBeLessThanOrEqual(1);
  }, 30_000);

  it('its credentials changed mid-run: its own 401 is proxy:401, never a token to renew (auth.token.refresh untouched)', async () => {
    const rotating = await startTinyproxy(dir, { basicAuth: { user: 'bench', password: 'proxy-pw-1' } });
    const out = join(dir, 'proxy-rotated');
    // A token command that would give the fixtures' own tokens back: run for a proxy's 401, it counts against the renewal.
    const held = JSON.parse(await readFile(serve.fixtures, 'utf8')) as { coachToken: string; participants: Array<{ userId: string; token: string }> };
    const tokens = join(dir, 'tokens.json');
    await writeFile(
      tokens,
      JSON.stringify({ coachToken: held.coachToken, participants: Object.fromEntries(held.participants.map((p) => [p.userId, p.token])) }),
    );
    const rotatingProfile = await profileFile(
      dir,
      'rotating',
      // Switches every second: chat streams open through the proxy after the change too.
      throughIntermediaryProfile({
        duration: '5s',
        chatStreams: { participants: 6, rampPerSec: 100, switchEvery: '1s', messageRatePerSec: 4, churnRatePerSec: 0 },
      }),
    );
    let changed: Promise<void> | null = null;
    try {
      const port = new URL(rotating.url).port;
      const args = ['run', '-p', rotatingProfile, '-t', serve.url, '-f', serve.fixtures, '--expect-keepalive', '1s', '--progress-every', '1s', '-o', out];
      const result = await runBin([...args, '--proxy', `http://bench:proxy-pw-1@127.0.0.1:${port}`, '--token-command', `cat ${JSON.stringify(tokens)}`], {
        // Once every stream is open through it, the proxy takes another password: the run's is refused with tinyproxy's own 401.
        onStderr: once(allStreamsOpen(12), () => {
          changed = rotating.reconfigure({ basicAuth: { user: 'bench', password: 'proxy-pw-2' } });
        }),
      });
      expect(changed, result.stderr).not.toBeNull();
      await changed;
      const report = await readRunReport(out);
      const why = `${result.stderr}\n${failures(report).join('\n')}`;
      expect(result.code, why).toBe(1);
      const photo = report.scenarios.photoUpload!;
      expect(photo.errorsByKind['proxy:401'], why).toBeGreaterThan(3);
      expect(photo.errorsByKind['status:401'], why).toBeUndefined();
      expect(report.scenarios.tagLink!.errorsByKind['proxy:401'], why).toBeGreaterThan(3);
      const chat = report.scenarios.chatStreams!;
      expect(chat.openFailures['proxy:401'], why).toBeGreaterThan(0);
      expect(chat.openFailures['status:401'], why).toBeUndefined();
      // A message post it refused is named as its answer too.
      const delivery = report.checks.find((each) => each.id === 'stream.message.delivery')!;
      expect(delivery.detail).not.toContain('status:401');
      if (/message posts refused/.test(delivery.detail)) expect(delivery.detail).toMatch(/\(first: POST chat_messages failed: proxy:401\)/);
      // The proxy's 401 is no refusal of a participant's token: nothing renewed, nothing counted against the renewal.
      expect(report.auth?.refreshes ?? 0, why).toBe(0);
      expect(report.auth?.waited ?? 0, why).toBe(0);
      expect(report.auth?.rejectedAfterRefresh ?? 0, why).toBe(0);
      const refresh = report.checks.find((each) => each.id === 'auth.token.refresh')!;
      expect(refresh.status, refresh.detail).toBe('skip');
    } finally {
      await changed;
      await rotating.stop();
    }
  }, 40_000);

  it('dying mid-run: stream.open names the proxy beside the target, and the reopens that could not reach it', async () => {
    const dying = await startTinyproxy(dir);
    const out = join(dir, 'proxy-died');
    let killed = false;
    try {
      const args = [
        'run',
        '-p',
        profile,
        '-t',
        serve.url,
        '-f',
        serve.fixtures,
        '--expect-keepalive',
        '1s',
        '--progress-every',
        '1s',
        '-o',
        out,
        '--proxy',
        dying.url,
      ];
      // Once every stream is open through it (6 participants, a main and a chat stream each), the proxy goes away.
      const result = await runBin(args, {
        onStderr: once(allStreamsOpen(12), () => {
          killed = true;
          void dying.stop();
        }),
      });
      expect(killed, result.stderr).toBe(true);
      const report = await readRunReport(out);
      const open = report.checks.find((each) => each.id === 'stream.open')!;
      expect(result.code, result.stderr).toBe(1);
      expect(open.detail).toMatch(new RegExp(`\\d+ streams cut by the target or proxy ${dying.url} \\(`));
      expect(open.detail).toMatch(new RegExp(`; \\d+ could not connect to proxy ${dying.url} itself \\(the run connects to nothing else\\)`));
      expect(report.scenarios.chatStreams!.openFailures['net:ECONNREFUSED']).toBeGreaterThan(0);
    } finally {
      await dying.stop();
    }
  }, 30_000);

  it('a target it cannot reach: exit 3 before any load, the proxy up and the target not reached, in its own words', async () => {
    const dead = `http://127.0.0.1:${await deadPort()}`;
    const result = await run(dead, join(dir, 'dead'), ['--proxy', proxy.url]);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr.trim()).toMatch(
      new RegExp(
        `^coachbench: proxy ${proxy.url} is up, but could not reach target ${dead}: it answered OPTIONS ${dead}/api/v1/participants ` +
          'with 500 Unable to connect \\(tinyproxy/[\\d.]+\\); check that the target is up and that the proxy can reach it$',
      ),
    );
  }, 30_000);

  it('an https target it cannot reach: its 500 to CONNECT is its own error and opened no tunnel, not a refusal', async () => {
    const dead = `https://127.0.0.1:${await deadPort()}`;
    const result = await run(dead, join(dir, 'dead-tls'), ['--proxy', proxy.url]);
    expect(result.code, result.stderr).toBe(3);
    // undici says no more of a CONNECT answer than its status: tinyproxy's reason phrase is not seen.
    expect(result.stderr.trim()).toBe(
      `coachbench: proxy ${proxy.url} answered CONNECT to ${new URL(dead).host}: 500 Internal Server Error (no tunnel was opened, so target ${dead} was not reached)`,
    );
  }, 30_000);

  it("its 403 to photo uploads mid-run is the proxy's: proxy:403, and no refusal of the target's", async () => {
    const out = join(dir, 'filtered');
    const result = await run(serve.url, out, ['--proxy', filtering.url]);
    const report = await readRunReport(out);
    const why = `${result.stderr}\n${failures(report).join('\n')}`;
    expect(result.code, why).toBe(1);
    const photo = report.scenarios.photoUpload!;
    expect(photo.errorsByKind, why).toEqual({ 'proxy:403': photo.errors });
    expect(photo.errors).toBeGreaterThan(5);
    const check = (id: string) => report.checks.find((each) => each.id === id)!;
    expect(check('photo.upload').detail).toMatch(/: proxy:403 \(a proxy answered: it refused the request\)$/);
    // The probe without X-API-Key got tinyproxy's 403, not the target's refusal: no evidence the target refuses.
    expect(check('auth.apikey.required').status, why).toBe('fail');
    expect(check('auth.apikey.required').detail).toMatch(
      /probe PATCH profile_photo without X-API-Key: proxy:403 \(a proxy answered, not the target\), expected the target's 401 or 403/,
    );
    // The tags, not filtered, went through the same proxy to the target.
    expect(check('tags.link').status, why).toBe('pass');
    expect(check('errors.problem_json').status, why).toBe('pass');
  }, 30_000);
});

describe('a proxy that cannot be reached', () => {
  it.each([
    ['--proxy, a plain-http target', 'http', (url: string) => ({ flags: ['--proxy', url], env: {} }), '--proxy'],
    ['HTTPS_PROXY, an https target', 'https', (url: string) => ({ flags: [], env: { HTTPS_PROXY: url } }), 'HTTPS_PROXY'],
  ])(
    '%s: exit 3 naming the proxy, not the target',
    async (_name, scheme, how, from) => {
      const proxyUrl = `http://127.0.0.1:${await deadPort()}`;
      // The target is never tried: through a proxy, the run connects to the proxy alone.
      const target = scheme === 'http' ? serve.url : `https://127.0.0.1:${await deadPort()}`;
      const { flags, env } = how(proxyUrl);
      const result = await run(target, join(dir, `no-proxy-${scheme}`), flags, env);
      expect(result.code, result.stderr).toBe(3);
      expect(result.stderr.trim()).toBe(`coachbench: proxy ${proxyUrl} (from ${from}) is not reachable (ECONNREFUSED), so target ${target} was not tried`);
    },
    30_000,
  );
});
