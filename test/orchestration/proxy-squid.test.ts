/**
 * Proxies as curl uses them (docs/design.md §2.12), against a real squid at Debian's default
 * rules (`http_access deny CONNECT !SSL_ports`) in front of `coachbench serve`: a plain-http
 * target goes through it in absolute form and the run passes, squid's log showing the
 * requests; an https target on a port other than 443 is refused CONNECT, and the run says
 * that the proxy refused, with its status, before any load. squid's own 503 and 504 (a target
 * it cannot connect to, or one that does not answer) name the target behind a proxy that is
 * up, before any load and in stream.open mid-run, never a refusal.
 */
import { mkdtemp } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOfError } from '../../src/contract/failure-codes.js';
import { createRequestAgent, createStreamClient } from '../../src/engine/http-agent.js';
import { defaultTransport } from '../../src/engine/transport.js';
import { allStreamsOpen, besidesClosingLines, once, runBin } from '../support/bin-helpers.js';
import { closedOnlyProfile, profileFile, quickProfile, throughIntermediaryProfile } from '../support/profiles.js';
import { failures } from '../support/run-helpers.js';
import { readRunReport } from '../support/run-report.js';
import { type ServeProcess, startServe } from '../support/serve-process.js';
import { type Squid, squidMissing, startSquid } from '../support/squid.js';

const missing = squidMissing();

/** A loopback port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.skipIf(missing !== null)(`through squid at Debian's default rules${missing ? ` (SKIPPED: ${missing})` : ''}`, () => {
  let dir: string;
  let squid: Squid;
  let plain: ServeProcess;
  let secure: ServeProcess;
  let certificate: string;
  let openProfile: string;
  let closedProfile: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'coachbench-squid-test-'));
    squid = await startSquid(dir);
    certificate = join(dir, 'serve.pem');
    // A 1 s KEEP_ALIVE: cadence is judged through squid on a loaded machine, one more hop than direct runs.
    const common = ['--participants', '30', '--sessions', '2', '--keepalive', '1s'];
    plain = await startServe(join(dir, 'plain-fixtures.json'), common);
    secure = await startServe(join(dir, 'secure-fixtures.json'), [...common, '--tls', 'self-signed', '--tls-cert-out', certificate]);
    openProfile = await profileFile(
      dir,
      'open',
      quickProfile({
        duration: '4s',
        keepAliveTolerance: '60%',
        tagLink: { enabled: true, model: 'open', ratePerSec: 10 },
        generator: { maxEventLoopDelayP99: '2s' },
      }),
    );
    closedProfile = await profileFile(dir, 'closed', closedOnlyProfile());
  }, 60_000);
  afterAll(async () => {
    await Promise.all([plain?.stop(), secure?.stop()]);
    await squid?.stop();
  });

  const runArgs = (target: string, fixtures: string, out: string, extra: string[] = []): string[] => [
    'run',
    '-p',
    openProfile,
    '-t',
    target,
    '-f',
    fixtures,
    '--expect-keepalive',
    '1s',
    '-q',
    '-o',
    out,
    ...extra,
  ];

  it.each([
    ['HTTP_PROXY', (): string[] => [], (): Record<string, string> => ({ HTTP_PROXY: squid.url })],
    ['--proxy', (): string[] => ['--proxy', squid.url], (): Record<string, string> => ({})],
  ])(
    'a plain-http run through squid as %s passes, in absolute form: squid logs every stream and request',
    async (_how, flags, env) => {
      const before = (await squid.accessLog()).length;
      const out = join(dir, `plain-${Math.random()}`);
      const result = await runBin(runArgs(plain.url, plain.fixtures, out, flags()), { env: env() });
      const report = await readRunReport(out);
      expect(result.code, `${result.stderr}\n${failures(report).join('\n')}`).toBe(0);
      const lines = (await squid.accessLog()).slice(before);
      const origin = plain.url;
      // Streams (main and chat), messages, tags and the preflight, each `METHOD http://host:port/...`.
      const streams = lines.filter((line) => line.includes(` GET ${origin}/api/v1/participants/`) && line.includes('/stream '));
      expect(streams.length).toBeGreaterThanOrEqual(24);
      expect(lines.some((line) => line.includes(` POST ${origin}/api/v1/participants/`))).toBe(true);
      expect(lines.some((line) => line.includes(` OPTIONS ${origin}/api/v1/participants `))).toBe(true);
      expect(lines.filter((line) => line.includes(' CONNECT '))).toEqual([]);
      expect(lines.filter((line) => line.includes('TCP_DENIED'))).toEqual([]);
    },
    60_000,
  );

  it.each([
    ['HTTPS_PROXY', (): string[] => [], (): Record<string, string> => ({ HTTPS_PROXY: squid.url })],
    ['--proxy', (): string[] => ['--proxy', squid.url], (): Record<string, string> => ({})],
  ])(
    'an https target on a port other than 443 through squid as %s: exit 3 before any load, naming the proxy and its 403',
    async (_how, flags, env) => {
      const out = join(dir, `secure-${Math.random()}`);
      const result = await runBin(runArgs(secure.url, secure.fixtures, out, ['--ca', certificate, ...flags()]), { env: env() });
      expect(result.code).toBe(3);
      const host = new URL(secure.url).host;
      expect(result.stderr.trim()).toBe(`coachbench: proxy ${squid.url} refused CONNECT to ${host}: 403 Forbidden`);
      expect((await squid.accessLog()).some((line) => line.includes(`TCP_DENIED/403`) && line.includes(`CONNECT ${host}`))).toBe(true);
    },
    60_000,
  );

  it("says so when the answer is the proxy's own: squid cannot reach a plain-http target", async () => {
    // A port nothing listens on: squid answers 503 itself, marked X-Squid-Error.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const result = await runBin(runArgs(deadUrl, plain.fixtures, join(dir, 'dead'), ['--proxy', squid.url]));
    expect(result.code).toBe(3);
    // squid's 503 is its word that it could not connect: the proxy is up, the target is the layer to look at.
    expect(result.stderr.trim()).toMatch(
      new RegExp(
        `^coachbench: proxy ${squid.url} is up, but could not reach target ${deadUrl}: it answered OPTIONS ${deadUrl}/api/v1/participants ` +
          'with 503 Service Unavailable \\(ERR_CONNECT_FAIL \\d+\\); check that the target is up and that the proxy can reach it$',
      ),
    );
  }, 60_000);

  describe('squid letting CONNECT through to any port, with a 1 s read_timeout', () => {
    let open: Squid;
    beforeAll(async () => {
      open = await startSquid(dir, { directives: ['acl SSL_ports port 1025-65535', 'read_timeout 1 seconds'] });
    }, 30_000);
    afterAll(() => open?.stop());

    it('an https target that is down: squid answers CONNECT 503, which says it could not reach the target, not that it refused', async () => {
      const deadUrl = `https://127.0.0.1:${await deadPort()}`;
      const result = await runBin(runArgs(deadUrl, secure.fixtures, join(dir, 'dead-tls'), ['--ca', certificate, '--proxy', open.url]));
      expect(result.code, result.stderr).toBe(3);
      const host = new URL(deadUrl).host;
      expect(result.stderr.trim()).toBe(
        `coachbench: proxy ${open.url} is up, but could not reach target ${deadUrl}: it answered CONNECT to ${host} with 503 Service Unavailable; ` +
          'check that the target is up and that the proxy can reach it',
      );
      expect((await open.accessLog()).some((line) => line.includes(`/503`) && line.includes(`CONNECT ${host}`))).toBe(true);
    }, 60_000);

    it("a target that takes the connection and never answers: squid's 504 says it had no answer in time from the target", async () => {
      const silent = createHttpServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
        const result = await runBin(runArgs(silentUrl, plain.fixtures, join(dir, 'silent'), ['--proxy', open.url]));
        expect(result.code, result.stderr).toBe(3);
        expect(result.stderr.trim()).toMatch(
          new RegExp(
            `^coachbench: proxy ${open.url} is up, but had no answer in time from target ${silentUrl}: it answered OPTIONS ${silentUrl}/api/v1/participants ` +
              'with 504 Gateway Timeout \\(ERR_READ_TIMEOUT \\d+\\); check that the target is up and answering$',
          ),
        );
      } finally {
        silent.closeAllConnections();
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      }
    }, 60_000);
  });

  it('the target stopped mid-run: stream.open and photo.upload say squid answered itself, up but unable to reach the target', async () => {
    const folder = join(dir, 'target-stopped');
    const stopping = await startServe(join(dir, 'stopping-fixtures.json'), ['--participants', '10', '--sessions', '2', '--keepalive', '1s']);
    let stopped: Promise<void> | null = null;
    try {
      const profile = await profileFile(
        dir,
        'stopping',
        throughIntermediaryProfile({
          chatStreams: { participants: 6, rampPerSec: 100, switchEvery: '0s', messageRatePerSec: 0, churnRatePerSec: 0 },
          photoUpload: { enabled: true, model: 'open', ratePerSec: 20, imageSizes: ['2KiB'], overrideShare: 0 },
          tagLink: { enabled: false },
        }),
      );
      const args = ['run', '-p', profile, '-t', stopping.url, '-f', stopping.fixtures, '--expect-keepalive', '1s', '--progress-every', '1s', '-o', folder];
      const result = await runBin([...args, '--proxy', squid.url], {
        // Once every stream is open through squid (6 participants, a main and a chat stream each), the target stops.
        onStderr: once(allStreamsOpen(12), () => {
          stopped = stopping.stop();
        }),
      });
      expect(stopped, result.stderr).not.toBeNull();
      await stopped;
      const report = await readRunReport(folder);
      const why = `${result.stderr}\n${failures(report).join('\n')}`;
      expect(result.code, why).toBe(1);
      // The streams cut when the target went away open again through squid, which answers each with its own 503.
      const answered = report.scenarios.chatStreams!.openFailures['proxy:503'] ?? 0;
      expect(answered, why).toBeGreaterThan(0);
      expect(report.checks.find((each) => each.id === 'stream.open')?.detail, why).toContain(
        `; ${answered} of the opens proxy ${squid.url} answered itself with 502, 503 or 504: it is up, but could not reach the target or had no answer from it`,
      );
      // The uploads after the stop got squid's 503 too (502 for one in flight as the target went): photo.upload names the target behind the proxy.
      expect(report.scenarios.photoUpload!.errorsByKind['proxy:503'], why).toBeGreaterThan(0);
      expect(report.checks.find((each) => each.id === 'photo.upload')?.detail, why).toMatch(
        /: proxy:50[23] \(a proxy answered: it is up, but could not reach the target\)/,
      );
    } finally {
      await stopped;
      await stopping.stop();
    }
  }, 60_000);

  it('counts a CONNECT the proxy refuses mid-run as proxy:403, for requests and streams alike', async () => {
    const transport = { ...defaultTransport(), proxy: { mode: 'url' as const, url: squid.url } };
    const origin = new URL(secure.url).origin;
    const errorOf = async (dispatcher: ReturnType<typeof createRequestAgent>): Promise<unknown> => {
      try {
        const response = await dispatcher.request({ origin, path: '/api/v1/participants', method: 'OPTIONS', headersTimeout: 10_000 });
        await response.body.dump();
        return null;
      } catch (error) {
        return error;
      } finally {
        await dispatcher.destroy().catch(() => undefined);
      }
    };
    expect(failureOfError(await errorOf(createRequestAgent(transport, 1)))).toBe('proxy:403');
    expect(failureOfError(await errorOf(createStreamClient(origin, { headersTimeoutMs: 10_000, transport })))).toBe('proxy:403');
  }, 30_000);

  it("counts the proxy's own refusal of forwarded stream opens as proxy:403, not as the target's status", async () => {
    const strict = await startSquid(dir, { denyUrlPath: '/stream$' });
    try {
      const out = join(dir, 'denied-streams');
      const result = await runBin(runArgs(plain.url, plain.fixtures, out, ['--proxy', strict.url]));
      expect(result.code).toBe(1);
      const chat = (await readRunReport(out)).scenarios.chatStreams!;
      expect(chat.openFailures['proxy:403']).toBe(chat.openFailed + chat.mainStreams.openFailed);
      expect(chat.openFailures['proxy:403']).toBeGreaterThan(0);
      expect(chat.openFailures['status:403']).toBeUndefined();
    } finally {
      await strict.stop();
    }
  }, 60_000);

  it('names the proxy, not a credential, when the proxy refuses the credential check', async () => {
    const strict = await startSquid(dir, { denyUrlPath: '/chat_sessions/[^/]+$' });
    try {
      const result = await runBin(runArgs(plain.url, plain.fixtures, join(dir, 'denied-check'), ['--proxy', strict.url]));
      expect(result.code).toBe(3);
      expect(result.stderr.trim()).toBe(
        `coachbench: proxy ${strict.url} refused GET ${plain.url}/api/v1/participants/p-000001/chat_sessions/cs-000001-1: 403 Forbidden (ERR_ACCESS_DENIED 0)`,
      );
    } finally {
      await strict.stop();
    }
  }, 60_000);

  it('refuses the closed model (exit 2, one line) while HTTP_PROXY applies to its target, and runs it directly when NO_PROXY names the target', async () => {
    const args = (out: string): string[] => ['run', '-p', closedProfile, '-t', plain.url, '-f', plain.fixtures, '-q', '-o', out];
    const refused = await runBin(args(join(dir, 'closed-refused')), { env: { HTTP_PROXY: squid.url } });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(
      `coachbench: HTTP_PROXY sends ${new URL(plain.url).host} through proxy ${squid.url}, and the closed model (autocannon) cannot go through a proxy: ` +
        "use the open model, name the target's host in NO_PROXY, or run with --no-proxy",
    );
    const before = (await squid.accessLog()).length;
    const direct = await runBin(args(join(dir, 'closed-direct')), { env: { HTTP_PROXY: squid.url, NO_PROXY: '127.0.0.1' } });
    expect(besidesClosingLines(direct.stderr)).toBe('');
    expect(direct.code).toBeLessThanOrEqual(1);
    expect((await squid.accessLog()).slice(before)).toEqual([]);
  }, 60_000);
});
