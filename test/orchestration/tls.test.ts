/**
 * Runs over HTTPS against the reference target with certificates made in the test
 * (docs/design.md §2.12): trust with --ca, the one-line hints that name the fixing flag,
 * --insecure said and recorded, --servername, and mutual TLS with --cert/--key. Every
 * driver (streams, open model, the closed model through autocannon, probes) goes over TLS.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { PEM_FILE_MAX_BYTES } from '../../src/util/pem-file.js';
import { runBin } from '../support/bin-helpers.js';
import { type TestPki, testPki } from '../support/certificates.js';
import { profileFile, quickProfile, TIMING_SLACK } from '../support/profiles.js';
import { readRunReport } from '../support/run-report.js';
import { startTargetWithFixtures, type TargetWithFixtures } from '../support/target-helpers.js';

let dir: string;
let pki: TestPki;
let profile: string;
const targets: RunningTarget[] = [];

/** A reference target over HTTPS with `cert`, its fixtures file written. */
async function httpsTarget(identity: { cert: string; key: string; clientCa?: string }): Promise<TargetWithFixtures> {
  const started = await startTargetWithFixtures({ dir }, { tls: identity });
  targets.push(started.target);
  return started;
}

const run = (target: RunningTarget, fixtures: string, flags: string[], out = join(dir, `out-${Math.random().toString(36).slice(2)}`)) =>
  runBin(['run', '-p', profile, '-t', target.url, '-f', fixtures, '--expect-keepalive', '500ms', '-q', '-o', out, ...flags]).then((result) => ({
    ...result,
    out,
  }));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-tls-'));
  pki = await testPki(dir);
  // Every driver at once: streams, open-model tags, closed-model photos (autocannon), probes.
  // What is judged is the transport, so the cadence gets the slack of runs not about timing.
  const everyDriver = quickProfile({
    duration: '3s',
    photoUpload: { enabled: true, model: 'closed', connections: 2, imageSizes: ['2KiB'] },
    tagLink: { enabled: true, model: 'open', ratePerSec: 10 },
    ...TIMING_SLACK,
  });
  profile = await profileFile(dir, 'profile', everyDriver);
});
afterAll(() => Promise.all(targets.map((target) => target.close())));

describe('a target behind a private CA', () => {
  it('is refused with exit 3 and a line naming --ca, and passes with --ca', async () => {
    const server = await pki.server(['127.0.0.1', 'localhost']);
    const { target, fixtures } = await httpsTarget(server);
    const refused = await run(target, fixtures, []);
    expect(refused.code).toBe(3);
    expect(refused.stderr.trim()).toMatch(/^coachbench: target https:\/\/127\.0\.0\.1:\d+ is not reachable \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\): .* --ca FILE/);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);

    const trusted = await run(target, fixtures, ['--ca', pki.ca.certFile]);
    const report = await readRunReport(trusted.out);
    expect(report.checks.filter((check) => check.status === 'fail')).toEqual([]);
    expect(trusted.code).toBe(0);
    expect(report.transport).toMatchObject({ tls: true, insecure: false, extraCas: 1 });
    // The closed model (autocannon) went over TLS and was answered.
    expect(report.scenarios.photoUpload!.requests).toBeGreaterThan(10);
    expect(report.scenarios.photoUpload!.errors).toBe(0);
  }, 60_000);

  it('runs with --insecure, saying so on stderr, in report.json and in the report header', async () => {
    const server = await pki.server(['127.0.0.1'], 'insecure');
    const { target, fixtures } = await httpsTarget(server);
    const result = await run(target, fixtures, ['--insecure']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('coachbench: warning: --insecure: the target certificate is NOT verified');
    const report = await readRunReport(result.out);
    expect(report.transport?.insecure).toBe(true);
    expect(report.warnings.join('\n')).toContain('--insecure');
    expect(await readFile(join(result.out, 'report.html'), 'utf8')).toContain('<span class="badge fail">INSECURE</span>');
    expect(await readFile(join(result.out, 'summary.md'), 'utf8')).toContain('(INSECURE: TLS not verified)');
  }, 60_000);
});

describe('a certificate for another name', () => {
  it('is refused with a line naming --servername, and passes with it', async () => {
    const server = await pki.server(['api.staging.test']);
    const { target, fixtures } = await httpsTarget(server);
    const refused = await run(target, fixtures, ['--ca', pki.ca.certFile]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/\(ERR_TLS_CERT_ALTNAME_INVALID\): its certificate is for another name: give that name with --servername NAME/);
    const named = await run(target, fixtures, ['--ca', pki.ca.certFile, '--servername', 'api.staging.test']);
    expect(named.code).toBe(0);
    expect((await readRunReport(named.out)).transport?.servername).toBe('api.staging.test');
  }, 60_000);
});

describe('mutual TLS', () => {
  it('fails without a client certificate and passes with --cert and --key', async () => {
    const server = await pki.server(['127.0.0.1'], 'mtls');
    const { target, fixtures } = await httpsTarget({ ...server, clientCa: pki.ca.cert });
    const refused = await run(target, fixtures, ['--ca', pki.ca.certFile]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/is not reachable \(\w+\): .*give one with --cert FILE --key FILE/);
    const client = await pki.client();
    const accepted = await run(target, fixtures, ['--ca', pki.ca.certFile, '--cert', client.certFile, '--key', client.keyFile]);
    const report = await readRunReport(accepted.out);
    expect(report.checks.filter((check) => check.status === 'fail')).toEqual([]);
    expect(accepted.code).toBe(0);
    expect(report.transport?.clientCertificate).toBe(true);
    // Key material never reaches the report folder.
    const folder = await Promise.all(['report.json', 'report.html', 'summary.md', 'junit.xml'].map((f) => readFile(join(accepted.out, f), 'utf8')));
    for (const text of folder) expect(text).not.toContain(client.key.split('\n')[1]!);
  }, 60_000);
});

describe('bad TLS flags', () => {
  it.each([
    [['--cert', '/etc/hostname'], '--cert needs --key (a client certificate and its key)'],
    [['--ca', '/no/such.pem'], '--ca /no/such.pem: ENOENT, no such file or directory'],
    [['--ca', '/etc/hostname'], '--ca /etc/hostname: not a PEM file'],
  ])('%j exits 2 with one line', async (flags, message) => {
    const result = await runBin(['run', '-d', '1s', ...flags]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(`coachbench: ${message}${message.endsWith('file') ? ' (no "-----BEGIN ...-----" block of the right kind)' : ''}`);
  });

  it('a --ca larger than a PEM file may be is exit 2 with one line, refused unread', async () => {
    const huge = join(dir, 'huge-ca.pem');
    await writeFile(huge, '-----BEGIN CERTIFICATE-----\n');
    // Sparse: the size is what is refused, so the test writes no 17 MiB.
    await truncate(huge, PEM_FILE_MAX_BYTES + 1024 * 1024);
    const result = await runBin(['run', '-d', '1s', '--ca', huge]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(`coachbench: --ca ${huge}: 17MiB, larger than a PEM file may be (16MiB)`);
  });

  it('a --ca that is a FIFO nobody writes to is exit 2 at once, not a process no signal can stop', async () => {
    const fifo = join(dir, 'ca.fifo');
    execFileSync('mkfifo', [fifo]);
    // Read synchronously, the FIFO held the process inside open(): a stop signal's handler could never run.
    const result = await runBin(['run', '-d', '1s', '--ca', fifo], { deadlineMs: 20_000 });
    expect(result.killed, 'still blocked at the deadline').toBe(false);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(`coachbench: --ca ${fifo}: not a regular file but a FIFO; give the path of a PEM file`);
  }, 30_000);
});
