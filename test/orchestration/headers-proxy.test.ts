// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests write the ${ENV_VAR} syntax users type, literally
/**
 * Extra headers and proxies (docs/design.md §2.12), through the CLI as users run it: a
 * recording forwarder in front of the reference target sees every request and stream open,
 * and a real CONNECT proxy started here counts the tunnels a run opens through it.
 */

import { readFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect as netConnect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveTransport } from '../../src/orchestration/transport-config.js';
import { ConfigError } from '../../src/util/errors.js';
import { VERSION } from '../../src/util/version.js';
import { besidesClosingLines, runBin } from '../support/bin-helpers.js';
import { type ForwardedRuns, startForwardedRuns } from '../support/forwarded-runs.js';
import { startRecordingForwarder } from '../support/forwarder.js';
import { profileFile, quickProfile } from '../support/profiles.js';
import { failures } from '../support/run-helpers.js';
import { readRunReport } from '../support/run-report.js';

/**
 * A proxy as HTTP_PROXY names one: absolute-form requests (`GET http://host:port/path`) are
 * forwarded and their hosts counted; a CONNECT opens a tunnel, counted too.
 */
async function connectProxy(): Promise<{ url: string; tunnels: string[]; forwarded: string[]; server: Server }> {
  const tunnels: string[] = [];
  const forwarded: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    if (!/^https?:\/\//.test(req.url ?? '')) return void res.writeHead(400).end();
    const url = new URL(req.url ?? '');
    forwarded.push(url.host);
    const upstream = httpRequest(url, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      // Headers go on at once, as a proxy's do: held until the first KEEP_ALIVE, they would read as an early one.
      res.flushHeaders();
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = netConnect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
    }
  });
  server.on('close', () => {
    for (const socket of sockets) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, tunnels, forwarded, server };
}

let runs: ForwardedRuns;

beforeAll(async () => {
  runs = await startForwardedRuns('coachbench-transport-', 30);
});
afterAll(() => runs.target.close());

/** Runs `run` with `flags` through a fresh recording forwarder; resolves with what it saw and the run. */
async function throughForwarder(runProfilePath: string, out: string, flags: string[], env: Record<string, string> = {}) {
  const forwarder = await startRecordingForwarder(runs.target.url);
  try {
    const args = ['run', '-p', runProfilePath, '-t', forwarder.url, '-f', runs.fixtures, '--expect-keepalive', '500ms', '-q', '-o', out, ...flags];
    const result = await runBin(args, { env });
    return { seen: forwarder.seen, result };
  } finally {
    forwarder.close();
  }
}

describe('--header and the User-Agent', () => {
  it('reach the target on every stream open and every request of every driver', async () => {
    const out = join(runs.dir, 'headers');
    const { seen, result } = await throughForwarder(runs.profile, out, ['-H', 'X-Tenant: acme', '-H', 'X-Waf-Bypass: ${WAF_TOKEN}'], {
      WAF_TOKEN: 'waf-secret-7',
    });
    // The subject is what reached the target. The forwarder shares this test process's loop,
    // which can deliver a stream's headers together with its first KEEP_ALIVE, and hold a
    // switch's open past the time load.achieved forgives on a busy machine: cadence and the load
    // held are judged by the direct runs elsewhere, every other check here.
    const report = await readRunReport(out);
    const forwarderBound = new Set(['stream.keepalive.cadence', 'load.achieved']);
    expect(report.checks.filter((check) => check.status === 'fail' && !forwarderBound.has(check.id))).toEqual([]);
    expect(result.code).toBeLessThanOrEqual(1);
    const kinds = new Set(seen.map((s) => (s.path.endsWith('/stream') ? 'stream' : `${s.method}`)));
    // Streams, photo PATCHes and tag POSTs (open model), message POSTs, probes.
    expect([...kinds]).toEqual(expect.arrayContaining(['stream', 'PATCH', 'POST']));
    // Every request of the run (the preflight OPTIONS included).
    for (const request of seen) {
      expect(request.headers['x-tenant'], `${request.method} ${request.path}`).toBe('acme');
      expect(request.headers['x-waf-bypass']).toBe('waf-secret-7');
      expect(request.headers['user-agent']).toBe(`coachbench/${VERSION}`);
    }
    expect(report.transport?.headers).toEqual(['x-tenant', 'x-waf-bypass']);
    // A value from the environment is a secret: nowhere in the report folder.
    for (const file of ['report.json', 'report.html', 'summary.md']) expect(await readFile(join(out, file), 'utf8')).not.toContain('waf-secret-7');
  }, 60_000);

  it('reach the target on every request of the closed model (autocannon)', async () => {
    const { seen } = await throughForwarder(runs.closedProfile, join(runs.dir, 'closed'), ['-H', 'X-Tenant: acme']);
    const patches = seen.filter((s) => s.method === 'PATCH');
    expect(patches.length).toBeGreaterThan(20);
    for (const request of patches) {
      expect(request.headers['x-tenant']).toBe('acme');
      expect(request.headers['user-agent']).toBe(`coachbench/${VERSION}`);
    }
  }, 60_000);

  it('lets --header override the User-Agent', async () => {
    const { seen, result } = await throughForwarder(runs.profile, join(runs.dir, 'ua'), ['-H', 'User-Agent: release-gate/1']);
    expect(besidesClosingLines(result.stderr)).toBe('');
    expect(seen.length).toBeGreaterThan(50);
    expect(new Set(seen.map((s) => s.headers['user-agent']))).toEqual(new Set(['release-gate/1']));
  }, 60_000);
});

describe('proxies', () => {
  let proxy: Awaited<ReturnType<typeof connectProxy>>;
  beforeAll(async () => {
    proxy = await connectProxy();
  });
  afterAll(() => {
    const closed = new Promise<void>((resolve) => proxy.server.close(() => resolve()));
    proxy.server.closeAllConnections();
    return closed;
  });

  // The open model and streams go through undici's proxy agents; the closed model (autocannon) cannot.
  const openProfile = (): Promise<string> =>
    profileFile(
      runs.dir,
      'open',
      quickProfile({ duration: '2s', tagLink: { enabled: true, model: 'open', ratePerSec: 10 }, generator: { maxEventLoopDelayP99: '2s' } }),
    );
  const host = (): string => new URL(runs.target.url).host;

  it.each([
    ['HTTP_PROXY from the environment', [], { HTTP_PROXY: 'PROXY' }, true],
    ['--proxy URL', ['--proxy', 'PROXY'], {}, true],
    ['--no-proxy despite HTTP_PROXY', ['--no-proxy'], { HTTP_PROXY: 'PROXY' }, false],
    ['NO_PROXY naming the target', [], { HTTP_PROXY: 'PROXY', NO_PROXY: '127.0.0.1' }, false],
  ])(
    '%s',
    async (_name, flags, env, proxied) => {
      const before = proxy.forwarded.length;
      const tunnelsBefore = proxy.tunnels.length;
      const withUrl = (value: string): string => value.replace('PROXY', proxy.url);
      const out = join(runs.dir, `proxy-${Math.random()}`);
      const result = await runBin(
        ['run', '-p', await openProfile(), '-t', runs.target.url, '-f', runs.fixtures, '--expect-keepalive', '500ms', '-q', '-o', out, ...flags.map(withUrl)],
        { env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, withUrl(v)])) },
      );
      expect(besidesClosingLines(result.stderr)).toBe('');
      // The subject is the route taken. The proxy and the target share this test process's loop,
      // so cadence is judged by the squid test (proxy-squid.test.ts) and the direct runs elsewhere.
      const failed = failures(await readRunReport(out)).filter((line) => !line.startsWith('stream.keepalive.cadence:'));
      expect(failed).toEqual([]);
      expect(result.code).toBeLessThanOrEqual(1);
      const forwarded = proxy.forwarded.slice(before);
      // A plain-http target is reached in absolute form, as curl does: no tunnel (docs/design.md §2.12).
      expect(proxy.tunnels.slice(tunnelsBefore)).toEqual([]);
      if (proxied) {
        // Every stream and request: all to the target, none elsewhere.
        expect(forwarded.length).toBeGreaterThan(24);
        expect(new Set(forwarded)).toEqual(new Set([host()]));
      } else {
        expect(forwarded).toEqual([]);
      }
    },
    60_000,
  );

  it('refuses --proxy with the closed model, which cannot use one', async () => {
    const result = await runBin(['run', '-p', runs.closedProfile, '-t', runs.target.url, '-f', runs.fixtures, '--proxy', proxy.url, '-q']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      'coachbench: --proxy: the closed model (autocannon) cannot go through a proxy; use the open model, or run it without --proxy',
    );
  });
});

describe('resolveTransport', () => {
  const profileOf = (headers: Record<string, string> = {}) => ({
    tls: { ca: [], cert: null, key: null, servername: null, insecure: false },
    headers,
    source: 'p.json',
  });
  it.each([
    [{ header: ['X-A'] }, {}, '--header: "X-A" must be \'Name: value\''],
    [{ header: ['Host: evil'] }, {}, '--header: host is set by the HTTP layer, not by hand'],
    [{ header: ['X A: b'] }, {}, '--header: "X A" is not a header name'],
    [{ header: ['X-A: ${MISSING}'] }, {}, '--header: ${MISSING} is not set in the environment'],
    [{}, { 'X-T': '${NOPE}' }, 'p.json: headers.X-T: ${NOPE} is not set in the environment'],
    [{ proxy: 'socks5://x:1' }, {}, '--proxy: "socks5://x:1": only http and https proxies are supported'],
  ])('%j with profile headers %j is refused', (flags, headers, message) => {
    expect(() => resolveTransport(flags, profileOf(headers), {})).toThrow(ConfigError);
    expect(() => resolveTransport(flags, profileOf(headers), {})).toThrow(message);
  });

  it('lets flags win over the profile, and substitutes the environment', () => {
    const transport = resolveTransport({ header: ['x-tenant: ${T}'] }, profileOf({ 'X-Tenant': 'from-profile', 'X-Env': 'prod' }), { T: 'from-env' });
    expect(transport.headers).toEqual({ 'user-agent': `coachbench/${VERSION}`, 'x-tenant': 'from-env', 'x-env': 'prod' });
  });
});
