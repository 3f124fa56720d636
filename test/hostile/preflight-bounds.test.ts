/**
 * The preflight's bounds (docs/design.md §2.2), through bin/coachbench.js as users run it. A
 * target that answers the preflight's requests with their headers and then trickles the body
 * a byte a second, forever (undici's bodyTimeout is an idle timer that each byte restarts),
 * and a proxy that takes the connection and never answers its CONNECT (undici's own bound
 * there is its default headers timeout): only a deadline over the whole request ends the
 * wait, and each case must end within it. Needs dist/ (npm run build).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { runBin } from '../support/bin-helpers.js';
import { hostileProfile } from '../support/hostile-run.js';
import { startServer, type TestServer } from '../support/throughput-helpers.js';

/** Each preflight request's whole bound (docs/design.md §2.2), and what a loaded machine may add to it. */
const PREFLIGHT_REQUEST_MS = 10_000;
/** The reachability check's whole bound: its connect's timeout and its headers' after it. */
const PREFLIGHT_REACHABLE_MS = 2 * PREFLIGHT_REQUEST_MS;
const SLACK_MS = 6_000;

let work: string;
let profile: string;
let fixtures: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'coachbench-trickle-'));
  profile = join(work, 'profile.json');
  await writeFile(profile, JSON.stringify(hostileProfile({ duration: '1s' })));
  fixtures = join(work, 'fixtures.json');
  await writeFile(fixtures, JSON.stringify({ participants: [{ userId: 'p-1', token: 't-trickle-1', chatSessionIds: ['cs-1'] }] }));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** The headers now, then one byte of body a second until the client goes away. */
function trickle(res: ServerResponse, status: number, contentType: string): void {
  res.writeHead(status, { 'content-type': contentType });
  res.flushHeaders();
  const timer = setInterval(() => res.write('{'), 1_000);
  res.on('close', () => clearInterval(timer));
}

const isOptions = (req: IncomingMessage): boolean => req.method === 'OPTIONS';
const isSession = (req: IncomingMessage): boolean => req.method === 'GET' && /\/chat_sessions\/[^/]+$/.test(req.url ?? '');
const refuse = (res: ServerResponse): void =>
  void res
    .writeHead(401, { 'content-type': 'application/problem+json' })
    .end(JSON.stringify({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'the bearer token has expired' }));

/** A target of the test's own, closed when the test ends. */
async function serve(test: TestContext, handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const server = await startServer(handler);
  test.onTestFinished(() => server.close());
  return server;
}

/** A run against `server`, into a report folder of its own: the cases wait out their bounds side by side. */
function run(server: TestServer, out: string): ReturnType<typeof runBin> {
  return runBin(['run', '--profile', profile, '--target', server.url, '--fixtures', fixtures, '--out', join(work, out), '--quiet'], {
    env: { COACHBENCH_API_KEY: 'k-trickle-suite' },
    deadlineMs: 40_000,
  });
}

// Each case waits for a bound of 10 or 20 s with the machine idle: side by side, not in turn.
describe.concurrent('a preflight answer whose body trickles forever', () => {
  it('the reachability check: the headers prove the target reachable, the body is not waited for', async (test) => {
    const server = await serve(test, (req, res) => (isOptions(req) ? trickle(res, 200, 'text/plain') : refuse(res)));
    const result = await run(server, 'reachability');
    expect(result.killed, result.stderr).toBe(false);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/the target refused participant p-1's token .*401 Unauthorized, title "Unauthorized"/);
    expect(result.elapsedMs).toBeLessThan(SLACK_MS);
  }, 60_000);

  it("the credential check's 401: exit 3 naming the token once the request's bound has passed", async (test) => {
    const server = await serve(test, (req, res) => (isOptions(req) ? void res.writeHead(204).end() : trickle(res, 401, 'application/problem+json')));
    const result = await run(server, 'refused');
    expect(result.killed, result.stderr).toBe(false);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/the target refused .*participant p-1's token .*401 Unauthorized, no problem\+json body/);
    expect(result.elapsedMs).toBeLessThan(PREFLIGHT_REQUEST_MS + SLACK_MS);
  }, 60_000);

  it("the credential check's 200: the run starts once the request's bound has passed, and ends with its report", async (test) => {
    const server = await serve(test, (req, res) => {
      if (isOptions(req)) return void res.writeHead(204).end();
      if (isSession(req)) return trickle(res, 200, 'application/json');
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    });
    const result = await run(server, 'accepted');
    expect(result.killed, result.stderr).toBe(false);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/report: /);
    expect(result.elapsedMs).toBeLessThan(PREFLIGHT_REQUEST_MS + 1_000 + SLACK_MS);
  }, 60_000);
});

describe.concurrent('a proxy that takes the connection and never answers CONNECT', () => {
  it('the reachability check ends at its bound: exit 3, one line naming the proxy', async () => {
    const sockets = new Set<Socket>();
    const proxy = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    try {
      // The target is never reached: an https origin goes through a CONNECT tunnel.
      const result = await runBin(
        [
          'run',
          '--profile',
          profile,
          '--target',
          'https://127.0.0.1:443',
          '--proxy',
          proxyUrl,
          '--fixtures',
          fixtures,
          '--out',
          join(work, 'proxy'),
          '--quiet',
        ],
        { env: { COACHBENCH_API_KEY: 'k-trickle-suite' }, deadlineMs: 45_000 },
      );
      expect(result.killed, result.stderr).toBe(false);
      expect(result.code, result.stderr).toBe(3);
      expect(result.stderr.trim()).toBe(
        `coachbench: target https://127.0.0.1 is not reachable through proxy ${proxyUrl} (no answer within ${PREFLIGHT_REACHABLE_MS / 1_000} s)`,
      );
      expect(result.elapsedMs).toBeLessThan(PREFLIGHT_REACHABLE_MS + SLACK_MS);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    }
  }, 60_000);
});
