/**
 * The load actually driven is judged (issue 26, item 1), against a real intermediary: tinyproxy
 * with `MaxClients 100` as HTTP_PROXY in front of `coachbench serve`, and a 200-participant run
 * (400 streams) through bin/. tinyproxy serves 100 connections and leaves the rest waiting in
 * its queue; before load.achieved such a run read PASS while holding a quarter of its streams,
 * and queued opens waited far past the open timeout, counted as nothing. Now the run fails on
 * load.achieved with planned and achieved in its message, and every queued open fails as
 * `timeout:headers` within its open timeout. Holds whether plain-http streams reach tinyproxy
 * as CONNECT tunnels or in absolute form: its MaxClients bounds both.
 *
 * Needs /usr/bin/tinyproxy (Debian package `tinyproxy`) and dist/ (npm run build).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../support/bin-helpers.js';
import { profileFile } from '../support/profiles.js';
import { readRunReport } from '../support/run-report.js';
import { type ServeProcess, startServe } from '../support/serve-process.js';
import { HAS_TINYPROXY, startTinyproxy, type Tinyproxy } from '../support/tinyproxy.js';

const PARTICIPANTS = 200;
const DURATION_MS = 10_000;
const OPEN_TIMEOUT_MS = 2_000;

let dir: string;
let serve: ServeProcess;
let proxy: Tinyproxy | undefined;
let proxyUrl: string;

describe.skipIf(!HAS_TINYPROXY)('tinyproxy (MaxClients 100) in front of a 200-participant run', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'coachbench-tinyproxy-'));
    serve = await startServe(join(dir, 'fixtures.json'), ['--participants', String(PARTICIPANTS + 20), '--sessions', '2', '--keepalive', '1s']);

    // Its packaged defaults but for MaxClients 100 (test/support/tinyproxy.ts): a long idle Timeout, as SSE streams sit idle between KEEP_ALIVEs.
    proxy = await startTinyproxy(dir, { maxClients: 100 });
    proxyUrl = proxy.url;
  }, 30_000);

  afterAll(async () => {
    await proxy?.stop();
    await serve?.stop();
  });

  it('fails on load.achieved with planned and achieved, and bounds every queued open by its timeout', async () => {
    const profile = await profileFile(dir, 'profile', {
      name: 'tinyproxy-load',
      duration: `${DURATION_MS}ms`,
      keepAliveTolerance: '50%',
      chatStreams: {
        participants: PARTICIPANTS,
        rampPerSec: 100,
        switchEvery: '0s',
        messageRatePerSec: 0,
        churnRatePerSec: 0,
        openTimeout: `${OPEN_TIMEOUT_MS}ms`,
        reopenBase: '200ms',
        reopenMax: '1s',
      },
      photoUpload: { enabled: false },
      tagLink: { enabled: false },
      generator: { maxEventLoopDelayP99: '500ms' },
    });
    const out = join(dir, 'report');
    const env = { HTTP_PROXY: proxyUrl, http_proxy: proxyUrl, NO_PROXY: '', no_proxy: '' };
    const result = await runBin(['run', '-p', profile, '-t', serve.url, '-f', serve.fixtures, '--expect-keepalive', '1s', '--out', out], {
      env,
      deadlineMs: 50_000,
    });
    expect(result.killed, result.stderr).toBe(false);
    expect(result.code, result.stderr).toBe(1);
    // Planned beside achieved on the progress line.
    expect(result.stderr).toMatch(/streams \d+\/400 \(plan 400\)/);
    const report = await readRunReport(out);
    expect(report.verdict).toBe('fail');
    const load = report.checks.find((check) => check.id === 'load.achieved')!;
    expect(load.status, load.detail).toBe('fail');
    // tinyproxy serves 100 connections, one per stream: at most a quarter of the 400 planned.
    expect(load.observed as number).toBeLessThan(50);
    expect(load.detail).toMatch(/^held \d+(\.\d)? % of planned stream-seconds \([\d,]+ of [\d,]+ from \d+(\.\d)? s to 10 s\); \d+ of 400 streams at the end/);
    const chat = report.scenarios.chatStreams!;
    expect(chat.participants).toBe(PARTICIPANTS);
    // Queued opens fail within their timeout and are tried again, many times over in 10 s (not
    // only the 300 still waiting at the end).
    expect(chat.openFailures['timeout:headers'] ?? 0, JSON.stringify(chat.openFailures)).toBeGreaterThan(400);
    expect(chat.samples.join('\n')).toMatch(/\(timeout:headers\)/);
    expect(chat.openLatencyMs.max).toBeLessThan(OPEN_TIMEOUT_MS + 1_000);
    expect(result.elapsedMs).toBeLessThan(DURATION_MS + 15_000);
  }, 60_000);
});
