/**
 * Runs through a real nginx (Debian's nginx-light 1.22) as a TLS + HTTP/2 reverse proxy in
 * front of `coachbench serve` (docs/failure-codes.md, "Buffering intermediaries";
 * docs/design.md §6): configured for SSE, the smoke profile (shortened) passes over HTTP/1.1;
 * over HTTP/2 nginx holds each stream's headers until its first KEEP_ALIVE, and the run says
 * slow opens (the open-latency threshold, stream.open's detail), never early KEEP_ALIVEs; with
 * nginx buffering at its defaults in front of a target that sends no `X-Accel-Buffering: no`,
 * the run fails and its failure names buffering. When the API behind nginx is down or silent,
 * nginx's own 502/504 page is named as a gateway's: exit 3 before any load, and mid-run (a path routed to a
 * service that is down) the target's status alone, never a finding on the API's headers or
 * problem bodies; stream opens it answers after the API stopped are said to be its page in
 * stream.open.
 */
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import { allStreamsOpen, once, runBin } from '../support/bin-helpers.js';
import { type TestPki, testPki } from '../support/certificates.js';
import { freePort } from '../support/free-port.js';
import { DEFAULT_BUFFERING_LOCATION, HAS_NGINX, NGINX_SKIP_NOTE, type RunningNginx, SSE_LOCATION, startNginx } from '../support/nginx.js';
import { profileFile, throughIntermediaryProfile } from '../support/profiles.js';
import { failures } from '../support/run-helpers.js';
import { readRunReport, readRunReportIfWritten } from '../support/run-report.js';
import { type ServeProcess, startServe } from '../support/serve-process.js';

/** smoke's own interval: on a loaded machine a driver stall bunches frames of a shorter one. */
const KEEP_ALIVE = '1s';
/** Half the interval: headers held until the first KEEP_ALIVE exceed it, TLS handshakes through nginx on a loaded machine do not. */
const OPEN_LATENCY_BOUND = 'chatStreams.openLatencyMs.p50 < 500';

let dir: string;
let pki: TestPki;
let serverCert: { certFile: string; keyFile: string };
const running: Array<ServeProcess | RunningNginx> = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-nginx-'));
  pki = await testPki(dir);
  serverCert = await pki.server(['127.0.0.1']);
});
afterEach(async () => {
  for (const process of running.splice(0).reverse()) await process.stop();
});

/**
 * profiles/smoke.json shortened: 7 s, its 1 s KEEP_ALIVE with a 50 % tolerance and a 500 ms
 * event-loop bound for a loaded machine, 40 participants, lighter requests; its
 * thresholds widened to the machine (delivery latency, open latency p50, gaps to the wider
 * tolerance), the rest as shipped.
 */
async function shortSmoke(name: string, chatStreams: Record<string, unknown> = {}): Promise<string> {
  const smoke = JSON.parse(await readFile(new URL('../../profiles/smoke.json', import.meta.url), 'utf8')) as Record<string, unknown> & {
    thresholds: string[];
    chatStreams: Record<string, unknown>;
    photoUpload: Record<string, unknown>;
    tagLink: Record<string, unknown>;
  };
  const thresholds = smoke.thresholds.map((t) =>
    t
      .replace('openLatencyMs.p50 < 250', 'openLatencyMs.p50 < 500')
      .replace('keepAliveGapMs.max <= 1250', 'keepAliveGapMs.max <= 1500')
      .replace('eventLatencyMs.p99 < 250', 'eventLatencyMs.p99 < 1000'),
  );
  expect(thresholds).toContain(OPEN_LATENCY_BOUND);
  const profile = {
    ...smoke,
    $schema: undefined,
    name,
    duration: '7s',
    warmup: '1s',
    keepAliveTolerance: '50%',
    target: { keepAlive: KEEP_ALIVE },
    chatStreams: { ...smoke.chatStreams, participants: 40, rampPerSec: 40, switchEvery: '2s', messageRatePerSec: 20, churnRatePerSec: 2, ...chatStreams },
    photoUpload: { ...smoke.photoUpload, ratePerSec: 10, imageSizes: ['16KiB', '128KiB'] },
    tagLink: { ...smoke.tagLink, ratePerSec: 10 },
    generator: { maxEventLoopDelayP99: '500ms' },
    thresholds,
  };
  return profileFile(dir, name, profile);
}

/** `serve` and an nginx in front of it, both stopped after the test. */
async function proxiedTarget(name: string, location: readonly string[], serveFlags: readonly string[] = []): Promise<RunningNginx & { fixtures: string }> {
  const folder = join(dir, name);
  await mkdir(folder, { recursive: true });
  const serve = await startServe(join(folder, 'fixtures.json'), ['--keepalive', KEEP_ALIVE, '--participants', '40', '--sessions', '3', ...serveFlags]);
  running.push(serve);
  const nginx = await startNginx({ dir: join(folder, 'nginx'), upstream: serve.url, ...serverCert, location });
  running.push(nginx);
  return { ...nginx, fixtures: serve.fixtures };
}

async function run(
  profile: string,
  target: RunningNginx & { fixtures: string },
  http: '1.1' | '2',
): Promise<{ code: number | null; why: string; report: Report }> {
  const out = join(dir, `out-${Math.random().toString(36).slice(2)}`);
  const flags = ['--target', target.url, '--ca', pki.ca.certFile, '--fixtures', target.fixtures, '--http', http, '--expect-keepalive', KEEP_ALIVE];
  const result = await runBin(['run', '-p', profile, ...flags, '-q', '-o', out]);
  const report = await readRunReportIfWritten(out);
  const ended = result.code === null ? `ended by ${result.signal} after ${Math.round(result.elapsedMs)} ms\n` : '';
  if (report === null) throw new Error(`no report: ${ended}${result.stderr}\nnginx: ${await target.errorLog()}`);
  return { code: result.code, why: `${ended}${result.stderr}\n${failures(report).join('\n')}`, report };
}

const check = (report: Report, id: string) => report.checks.find((c) => c.id === id);

describe(`nginx as a TLS + HTTP/2 reverse proxy${NGINX_SKIP_NOTE}`, () => {
  it.skipIf(!HAS_NGINX)(
    'configured for SSE, the shortened smoke profile passes over HTTP/1.1',
    async () => {
      const nginx = await proxiedTarget('sse-h1', SSE_LOCATION);
      const { code, why, report } = await run(await shortSmoke('nginx-sse-h1'), nginx, '1.1');
      expect(code, why).toBe(0);
      expect(report.transport?.protocols).toMatchObject({ streams: { 'http/1.1': expect.any(Number) } });
      const chat = report.scenarios.chatStreams!;
      expect(chat.firstKeepAliveEarly).toBe(0);
      expect(chat.firstKeepAliveWithHeaders).toBe(0);
      expect(chat.keepAliveGapMs.count).toBeGreaterThan(200);
    },
    60_000,
  );

  it.skipIf(!HAS_NGINX)(
    'over HTTP/2 nginx holds the headers until the first KEEP_ALIVE: slow opens, not an early cadence',
    async () => {
      const nginx = await proxiedTarget('sse-h2', SSE_LOCATION);
      const { code, why, report } = await run(await shortSmoke('nginx-sse-h2'), nginx, '2');
      expect(report.transport?.protocols).toMatchObject({ streams: { h2: 40 } });
      const chat = report.scenarios.chatStreams!;
      // nginx 1.22 sends an h2 stream's HEADERS frame with its first DATA frame: the first KEEP_ALIVE, one
      // interval after the request, or an earlier message or member event of the stream's session.
      expect(chat.openLatencyMs.p50, why).toBeGreaterThan(500);
      expect(chat.firstKeepAliveWithHeaders, why).toBeGreaterThan(20);
      expect(chat.firstKeepAliveEarly).toBe(0);
      expect(check(report, 'stream.keepalive.cadence')?.status, why).toBe('pass');
      expect(check(report, 'stream.open')).toMatchObject({ status: 'pass' });
      expect(check(report, 'stream.open')?.detail).toMatch(
        /open latency p50 \d+ ms, p99 \d+ ms; \d+ streams got their headers only with their first KEEP_ALIVE, about one interval after the request \(an intermediary holding the headers/,
      );
      // The one failure is the slow opens themselves.
      expect(failures(report), why).toEqual([expect.stringMatching(/^chatStreams\.openLatencyMs\.p50 < 500 \(observed \d+/)]);
      expect(code).toBe(1);
    },
    60_000,
  );

  it.skipIf(!HAS_NGINX)(
    'buffering at nginx defaults, the target sending no X-Accel-Buffering: the run fails, naming buffering',
    async () => {
      const nginx = await proxiedTarget('buffering-h1', DEFAULT_BUFFERING_LOCATION, ['--no-accel-buffering-header']);
      const { code, why, report } = await run(await shortSmoke('nginx-buffering-h1', { openTimeout: '2s' }), nginx, '1.1');
      expect(code, why).toBe(1);
      // Over TLS and HTTP/1.1 nginx keeps headers and KEEP_ALIVEs in its TLS buffer: no stream gets its headers.
      const open = check(report, 'stream.open');
      expect(open?.status, why).toBe('fail');
      expect(report.scenarios.chatStreams!.openFailures['timeout:headers'], why).toBeGreaterThan(40);
      expect(open?.detail).toMatch(
        /got no headers within the open timeout \(a target that holds them, or an intermediary buffering the response\? see docs\/failure-codes\.md/,
      );
      expect(report.scenarios.chatStreams!.firstKeepAliveEarly ?? 0).toBe(0);
      // The requests through the same nginx were answered: the target was up all along.
      expect(report.scenarios.tagLink!.requests).toBeGreaterThan(20);
      expect(report.scenarios.tagLink!.errors).toBe(0);
    },
    60_000,
  );

  /** A short run through nginx: streams, photo uploads and tag links, over HTTP/2. */
  const briefProfile = (more: Record<string, unknown> = {}): Promise<string> =>
    profileFile(dir, `brief-${Object.keys(more).join('-')}`, throughIntermediaryProfile({ target: { keepAlive: KEEP_ALIVE }, ...more }));

  /** `serve`, and nginx in front of `upstream` (default: that serve) with more `routes`; both stopped after the test. */
  async function gateway(
    name: string,
    upstream: string | null,
    routes: Record<string, string> = {},
    location: readonly string[] = SSE_LOCATION,
  ): Promise<RunningNginx & { fixtures: string }> {
    const folder = join(dir, name);
    await mkdir(folder, { recursive: true });
    const serve = await startServe(join(folder, 'fixtures.json'), ['--keepalive', KEEP_ALIVE, '--participants', '10', '--sessions', '2']);
    running.push(serve);
    const nginx = await startNginx({ dir: join(folder, 'nginx'), upstream: upstream ?? serve.url, ...serverCert, location, routes });
    running.push(nginx);
    return { ...nginx, fixtures: serve.fixtures };
  }

  const runArgs = (profile: string, target: RunningNginx & { fixtures: string }, out: string): string[] =>
    ['run', '-p', profile, '--target', target.url, '--ca', pki.ca.certFile, '--fixtures', target.fixtures, '--http', '2'].concat([
      '--expect-keepalive',
      KEEP_ALIVE,
      '-q',
      '-o',
      out,
    ]);

  it.skipIf(!HAS_NGINX).each([
    ['the API behind it down', 'api-down', 'OPTIONS /api/v1/participants'],
    ["the credential check's path routed to a service that is down", 'check-down', 'GET /api/v1/participants/p-000001/chat_sessions/cs-000001-1'],
  ])(
    "%s: exit 3 before any load, naming the gateway's own 502 page",
    async (_name, folder, request) => {
      // A port nothing listens on: nginx answers 502 itself.
      const down = `http://127.0.0.1:${await freePort()}`;
      const nginx = request.startsWith('GET') ? await gateway(folder, null, { '/api/v1/participants/': down }) : await gateway(folder, down);
      const result = await runBin(runArgs(await briefProfile(), nginx, join(dir, `${folder}-out`)));
      expect(result.code, result.stderr).toBe(3);
      expect(result.stderr.trim()).toMatch(
        new RegExp(
          `^coachbench: target ${nginx.url} answered ${request} with 502 Bad Gateway, a gateway's own page ` +
            "\\(text/html, Server: nginx/[\\d.]+\\), not the API's: the gateway could not reach the API behind it$",
        ),
      );
    },
    30_000,
  );

  it.skipIf(!HAS_NGINX)(
    "an API that does not answer within nginx's proxy_read_timeout: exit 3 before any load, naming the gateway's own 504 page",
    async () => {
      // Accepts and never answers; nginx's read timeout shortened from its 60 s default to 1 s.
      const silent = createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const upstream = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
        const nginx = await gateway('api-silent', upstream, {}, ['proxy_http_version 1.1;', 'proxy_read_timeout 1s;']);
        const result = await runBin(runArgs(await briefProfile(), nginx, join(dir, 'api-silent-out')));
        expect(result.code, result.stderr).toBe(3);
        expect(result.stderr.trim()).toMatch(
          new RegExp(
            `^coachbench: target ${nginx.url} answered OPTIONS /api/v1/participants with 504 Gateway Timeout, a gateway's own page ` +
              "\\(text/html, Server: nginx/[\\d.]+\\), not the API's: the gateway had no answer in time from the API behind it$",
          ),
        );
      } finally {
        silent.closeAllConnections();
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      }
    },
    30_000,
  );

  it.skipIf(!HAS_NGINX)(
    "the API stopped mid-run: stream.open says the opens nginx answered with its own 502 page were the gateway's, not the API's",
    async () => {
      const folder = join(dir, 'api-stopped');
      await mkdir(folder, { recursive: true });
      const serve = await startServe(join(folder, 'fixtures.json'), ['--keepalive', KEEP_ALIVE, '--participants', '10', '--sessions', '2']);
      running.push(serve);
      const nginx = await startNginx({ dir: join(folder, 'nginx'), upstream: serve.url, ...serverCert, location: SSE_LOCATION });
      running.push(nginx);
      const out = join(dir, 'api-stopped-out');
      const args = ['run', '-p', await briefProfile(), '--target', nginx.url, '--ca', pki.ca.certFile, '--fixtures', serve.fixtures];
      let stopped: Promise<void> | null = null;
      const result = await runBin([...args, '--http', '1.1', '--expect-keepalive', KEEP_ALIVE, '--progress-every', '1s', '-o', out], {
        // Once every stream is open through nginx (6 participants, a main and a chat stream each), the API behind it stops.
        onStderr: once(allStreamsOpen(12), () => {
          stopped = serve.stop();
        }),
      });
      expect(stopped, result.stderr).not.toBeNull();
      await stopped;
      const report = await readRunReport(out);
      const why = `${result.stderr}\n${failures(report).join('\n')}`;
      expect(result.code, why).toBe(1);
      const chat = report.scenarios.chatStreams!;
      // The streams cut when the API went away open again, and nginx answers each with its own HTML 502.
      const pages = chat.openFailures['status:502'] ?? 0;
      expect(pages, why).toBeGreaterThan(0);
      expect(check(report, 'stream.open')?.detail, why).toMatch(
        new RegExp(
          `; ${pages} of the opens were answered by a gateway's own 502 page, not the API: the gateway in front of the API could not reach it \\(first: text/html, Server: nginx/[\\d.]+\\)`,
        ),
      );
    },
    30_000,
  );

  it.skipIf(!HAS_NGINX)(
    "a path routed to a service that is down: the target's 502, not findings on the API's headers or problem bodies",
    async () => {
      const nginx = await gateway('tags-down', null, { '/api/v1/admin/': `http://127.0.0.1:${await freePort()}` });
      const out = join(dir, 'tags-down-out');
      // A request kind of that service too, expecting the API's Cache-Control.
      const kind = { name: 'listTags', method: 'GET', path: '/admin/tags', credential: 'coach', expect: { status: [200], headers: ['cache-control'] } };
      const result = await runBin(runArgs(await briefProfile({ requests: { model: 'open', ratePerSec: 5, kinds: [kind] } }), nginx, out));
      const report = await readRunReport(out);
      const why = `${result.stderr}\n${failures(report).join('\n')}`;
      expect(result.code, why).toBe(1);
      const tags = report.scenarios.tagLink!;
      expect(tags.errors, why).toBeGreaterThan(5);
      expect(tags.errorsByKind, why).toEqual({ 'status:502': tags.errors });
      expect(check(report, 'tags.link')?.detail).toMatch(/: status 502 \(expected 200\), a gateway's own page \(text\/html, Server: nginx\/[\d.]+\)$/);
      // nginx's HTML page is no error answer of the API's: the API's own refusals, problem+json, are the evidence.
      expect(check(report, 'errors.problem_json')?.status, why).toBe('pass');
      expect(report.scenarios.photoUpload!.errors, why).toBe(0);
      const listTags = report.scenarios.requests!.listTags!;
      expect(listTags.errors, why).toBeGreaterThan(5);
      expect(listTags.errorsByKind, why).toEqual({ 'status:502': listTags.errors });
      expect(check(report, 'requests.expectations')?.detail, why).toMatch(
        /status 502 \(expected 200\), a gateway's own page \(text\/html, Server: nginx\/[\d.]+\)/,
      );
    },
    30_000,
  );
});
