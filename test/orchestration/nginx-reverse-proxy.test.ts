/**
 * Runs through a real nginx (Debian's nginx-light 1.22) as a TLS + HTTP/2 reverse proxy in
 * front of `coachbench serve` (docs/failure-codes.md, "Buffering intermediaries";
 * docs/design.md §6): configured for SSE, the smoke profile (shortened) passes over HTTP/1.1;
 * over HTTP/2 nginx holds each stream's headers until its first KEEP_ALIVE, and the run says
 * slow opens (the open-latency threshold, stream.open's detail), never early KEEP_ALIVEs; with
 * nginx buffering at its defaults in front of a target that sends no `X-Accel-Buffering: no`,
 * the run fails and its failure names buffering.
 */
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import { runBin } from '../support/bin-helpers.js';
import { type TestPki, testPki } from '../support/certificates.js';
import { DEFAULT_BUFFERING_LOCATION, HAS_NGINX, NGINX_SKIP_NOTE, type RunningNginx, SSE_LOCATION, startNginx } from '../support/nginx.js';
import { profileFile } from '../support/profiles.js';
import { failures } from '../support/run-helpers.js';
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
  const text = await readFile(join(out, 'report.json'), 'utf8').catch(() => null);
  const ended = result.code === null ? `ended by ${result.signal} after ${Math.round(result.elapsedMs)} ms\n` : '';
  if (text === null) throw new Error(`no report: ${ended}${result.stderr}\nnginx: ${await target.errorLog()}`);
  const report = JSON.parse(text) as Report;
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
});
