/**
 * HTTP/2 end to end (docs/design.md §2.14), through the CLI as users run it, against the
 * reference target serving h2 beside HTTP/1.1 over TLS (certificates made here, trusted with
 * --ca) and h2c in plain text: every check passes over HTTP/2, each participant holds one
 * connection for its streams, and report.json says which protocol each driver negotiated.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import type { RunningTarget, TargetOptions } from '../../src/reference-service/target-types.js';
import { runBin } from '../support/bin-helpers.js';
import { type Pem, testPki } from '../support/certificates.js';
import { profileFile, quickProfile, TIMING_SLACK, writeProfile } from '../support/profiles.js';
import { failures } from '../support/run-helpers.js';
import { readRunReport, readRunReportIfWritten } from '../support/run-report.js';
import { startTargetWithFixtures, type TargetWithFixtures } from '../support/target-helpers.js';

let dir: string;
let server: Pem;
let caFile: string;
const targets: RunningTarget[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-http2-'));
  const pki = await testPki(dir);
  server = await pki.server(['127.0.0.1', 'localhost']);
  caFile = pki.ca.certFile;
});
afterAll(async () => {
  for (const target of targets) await target.close();
});

async function target(options: TargetOptions): Promise<TargetWithFixtures> {
  const started = await startTargetWithFixtures({ dir }, { participants: 300, sessionsPerParticipant: 3, keepAliveMs: 1_000, ...options });
  targets.push(started.target);
  return started;
}

async function run(args: string[]): Promise<{ code: number | null; stderr: string; report: Report | null }> {
  const out = join(dir, `out-${targets.length}-${Math.random().toString(36).slice(2)}`);
  const result = await runBin([...args, '-q', '-o', out]);
  const report = await readRunReportIfWritten(out);
  // A run ended by a signal (or by runBin's deadline) says so in the assertion message.
  const ended = result.code === null ? `ended by ${result.signal}${result.killed ? ' at the deadline' : ''} after ${Math.round(result.elapsedMs)} ms\n` : '';
  return { code: result.code, stderr: `${ended}${result.stderr}`, report };
}

const tls = () => ({ tls: { cert: server.cert, key: server.key }, http2: true });

describe('--http 2', () => {
  it('the smoke profile passes over h2 with TLS and --ca: one connection per participant for its two streams', async () => {
    const { target: https, fixtures } = await target(tls());
    // The smoke profile as shipped, every check included, but with its timing bounds sized for
    // this test's machine: it shares two cores with the target and the other test files, and
    // makes 300 TLS handshakes in its first two seconds (alone on the machine: event-loop p99
    // 25-40 ms against smoke's 50 ms bound). On CI the shipped timing thresholds failed this
    // test once (a threshold, every check passing); cadence and latency are proven precisely
    // by their own tests (run-faults, keepalive), this one proves the transport.
    const smoke = JSON.parse(await readFile(new URL('../../profiles/smoke.json', import.meta.url), 'utf8')) as { thresholds: string[] };
    const thresholds = smoke.thresholds.map((t) =>
      t
        .replace('eventLatencyMs.p99 < 250', 'eventLatencyMs.p99 < 1000')
        .replace('keepAliveGapMs.max <= 1250', 'keepAliveGapMs.max <= 2500')
        // Six seconds hold no session switch: the opens judged after the warm-up are the ramp's
        // last TLS handshakes, seconds long on a loaded machine. nginx-reverse-proxy.test.ts judges open latency.
        .replace('openLatencyMs.p50 < 250', 'openLatencyMs.p50 < 5000')
        .replace('openLatencyMs.p99 < 2000', 'openLatencyMs.p99 < 9000'),
    );
    expect(thresholds).not.toEqual(smoke.thresholds);
    const profile = await profileFile(dir, 'smoke', { ...smoke, $schema: undefined, thresholds, generator: { maxEventLoopDelayP99: '250ms' } });
    const flags = ['--duration', '6s', '-t', https.url, '-f', fixtures, '--ca', caFile, '--http', '2', '--expect-keepalive', '1s'];
    const { code, stderr, report } = await run(['run', '-p', profile, ...flags]);
    expect(code, `${stderr}\n${report ? failures(report).join('\n') : ''}`).toBe(0);
    const chat = report!.scenarios.chatStreams!;
    expect(chat.mainStreams.peakConcurrent).toBe(300);
    expect(report!.transport!.http).toBe('2');
    // 300 participants, one h2 connection each, for both streams and every switch between sessions.
    expect(report!.transport!.protocols).toMatchObject({ streams: { h2: 300 } });
    expect(Object.keys(report!.transport!.protocols!.streams!)).toEqual(['h2']);
    expect(Object.keys(report!.transport!.protocols!.requests!)).toEqual(['h2']);
    expect(report!.scenarios.photoUpload!.errors).toBe(0);
    expect(report!.scenarios.tagLink!.errors).toBe(0);
    expect(chat.messagesSent).toBeGreaterThan(50);
  }, 60_000);

  it('speaks h2c with prior knowledge to a plain-text target, the embedded one included', async () => {
    const { path: profile } = await writeProfile(
      quickProfile({
        target: { keepAlive: '500ms', participants: 30, sessionsPerParticipant: 2, http2: true },
        photoUpload: { enabled: true, model: 'open', ratePerSec: 20, imageSizes: ['16KiB'] },
        tagLink: { enabled: true, model: 'open', ratePerSec: 10 },
        generator: { maxEventLoopDelayP99: '1s' },
      }),
    );
    const { code, stderr, report } = await run(['run', '-p', profile, '--http', '2']);
    expect(code, `${stderr}\n${report ? failures(report).join('\n') : ''}`).toBe(0);
    expect(report!.transport!.protocols).toMatchObject({ streams: { h2c: 24 } });
    expect(Object.keys(report!.transport!.protocols!.requests!)).toEqual(['h2c']);
    // Driver workers speak what the run asked for too (the transport travels with their job).
    const workers = await run(['run', '-p', profile, '--http', '2', '--workers', '2']);
    expect(workers.code, workers.stderr).toBe(0);
    expect(workers.report!.transport!.protocols).toMatchObject({ streams: { h2c: 24 } });
    expect(Object.keys(workers.report!.transport!.protocols!.requests!)).toEqual(['h2c']);
  }, 60_000);

  it('a stream the target drops is reset alone: its participant reconnects on the same connection', async () => {
    const { path: profile } = await writeProfile(
      quickProfile({
        target: { keepAlive: '500ms', participants: 30, sessionsPerParticipant: 2, http2: true, faults: ['drop=50'] },
        chatStreams: { participants: 24, rampPerSec: 200, switchEvery: '0s', messageRatePerSec: 0, churnRatePerSec: 0 },
        generator: { maxEventLoopDelayP99: '1s' },
      }),
    );
    const { code, report } = await run(['run', '-p', profile, '--http', '2']);
    expect(code).toBe(1);
    const chat = report!.scenarios.chatStreams!;
    expect(report!.checks.find((c) => c.id === 'stream.open')?.status).toBe('fail');
    expect(chat.resume!.reconnects).toBeGreaterThan(5);
    // An HTTP/1.1 drop closes the connection; an h2 drop resets one stream: still one connection per participant.
    expect(report!.transport!.protocols).toEqual({ streams: { h2c: 24 } });
  }, 60_000);

  it('is refused by name when the TLS target offers only HTTP/1.1 (exit 3), and for the closed model (exit 2)', async () => {
    const { target: h1, fixtures } = await target({ tls: { cert: server.cert, key: server.key } });
    const refused = await run(['run', '-p', 'smoke', '-t', h1.url, '-f', fixtures, '--ca', caFile, '--http', '2']);
    expect(refused.code).toBe(3);
    expect(refused.stderr.trim()).toBe(
      `coachbench: target ${h1.url} is not reachable (ERR_COACHBENCH_NO_H2): it does not offer HTTP/2 (its ALPN chose http/1.1): run with --http auto or --http 1.1`,
    );
    const { path: closedProfile } = await writeProfile(quickProfile({ photoUpload: { enabled: true, model: 'closed', connections: 2 } }));
    const closed = await run(['run', '-p', closedProfile, '--http', '2']);
    expect(closed.code).toBe(2);
    expect(closed.stderr).toContain('--http 2: the closed model (autocannon) speaks HTTP/1.1 only');
    const bad = await run(['run', '--http', '3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('coachbench: --http: "3" is not one of 1.1, 2, auto');
  }, 60_000);
});

describe('--http 1.1, the default', () => {
  it('stays on HTTP/1.1 against a target that offers h2 (undici 8 would take h2 unless told not to)', async () => {
    const { path: profile } = await writeProfile(quickProfile({ photoUpload: { enabled: true, model: 'open', ratePerSec: 20, imageSizes: ['2KiB'] } }));
    const { target: https, fixtures } = await target({ ...tls(), participants: 30, sessionsPerParticipant: 2, keepAliveMs: 500 });
    const { code, stderr, report } = await run(['run', '-p', profile, '-t', https.url, '-f', fixtures, '--ca', caFile, '--expect-keepalive', '500ms']);
    expect(code, stderr).toBe(0);
    expect(report!.transport!.http).toBe('1.1');
    expect(Object.keys(report!.transport!.protocols!.streams!)).toEqual(['http/1.1']);
    expect(Object.keys(report!.transport!.protocols!.requests!)).toEqual(['http/1.1']);
  }, 60_000);
});

describe('--http auto', () => {
  it('takes h2 where the target offers it and HTTP/1.1 where it does not, and says which', async () => {
    const { path: profile } = await writeProfile(quickProfile({ photoUpload: { enabled: true, model: 'open', ratePerSec: 20, imageSizes: ['2KiB'] } }));
    for (const [options, protocol] of [
      [tls(), 'h2'],
      [{ tls: { cert: server.cert, key: server.key } }, 'http/1.1'],
    ] as const) {
      const { target: https, fixtures } = await target({ ...options, participants: 30, sessionsPerParticipant: 2, keepAliveMs: 500 });
      const { code, stderr, report } = await run([
        'run',
        '-p',
        profile,
        '-t',
        https.url,
        '-f',
        fixtures,
        '--ca',
        caFile,
        '--http',
        'auto',
        '--expect-keepalive',
        '500ms',
      ]);
      expect(code, `${stderr}\n${report ? failures(report).join('\n') : ''}`).toBe(0);
      expect(Object.keys(report!.transport!.protocols!.streams!), protocol).toEqual([protocol]);
      expect(Object.keys(report!.transport!.protocols!.requests!), protocol).toEqual([protocol]);
    }
  }, 60_000);

  it('keeps the closed model on HTTP/1.1 over TLS and says so in one line, which --quiet silences', async () => {
    // The embedded target over TLS with h2 beside HTTP/1.1: the streams take h2, autocannon cannot.
    const { path: profile } = await writeProfile(
      quickProfile({
        duration: '1500ms',
        target: { keepAlive: '500ms', participants: 4, sessionsPerParticipant: 1, tls: 'self-signed', http2: true },
        chatStreams: { participants: 4, rampPerSec: 200, switchEvery: '1s', messageRatePerSec: 0, churnRatePerSec: 0 },
        photoUpload: { enabled: true, model: 'closed', connections: 1, imageSizes: ['2KiB'] },
        ...TIMING_SLACK,
      }),
    );
    const note =
      'coachbench: --http auto: photoUpload (closed model) stays on HTTP/1.1, which autocannon alone speaks; the other requests and streams take h2 where the target offers it';
    const out = join(dir, 'closed-auto');
    const said = await runBin(['run', '-p', profile, '--http', 'auto', '-o', out]);
    const report = await readRunReport(out);
    expect(report.transport!.protocols).toMatchObject({ streams: { h2: 4 }, closedModel: { 'http/1.1': 1 } });
    expect(said.stderr.split('\n').filter((line) => line.includes('--http auto'))).toEqual([note]);
    const quiet = await run(['run', '-p', profile, '--http', 'auto']);
    expect(quiet.report).not.toBeNull();
    expect(quiet.stderr).not.toContain('--http auto');
  }, 60_000);
});
