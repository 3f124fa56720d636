/**
 * End to end through bin/coachbench.js (built dist/): exit codes of docs/design.md §2,
 * one-line errors, reports on disk, SIGINT handling, and a run against an external --target.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import { startTarget } from '../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { quickProfile } from '../orchestration/run-helpers.js';

const BIN = new URL('../../bin/coachbench.js', import.meta.url).pathname;

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function coachbench(args: string[], options: { env?: Record<string, string>; onStart?: (pid: number) => void } = {}): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (options.onStart && stderr.includes('[')) {
        options.onStart(child.pid!);
        options.onStart = undefined;
      }
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let dir: string;
let profilePath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-e2e-'));
  profilePath = join(dir, 'quick.json');
  await writeFile(profilePath, JSON.stringify(quickProfile({ duration: '2s' })));
});

const readReport = async (folder: string): Promise<Report> => JSON.parse(await readFile(join(folder, 'report.json'), 'utf8')) as Report;

describe('coachbench run (e2e)', () => {
  it('runs a profile against the embedded target, prints progress, writes the report, exits 0', async () => {
    const out = join(dir, 'ok');
    const result = await coachbench(['run', '--profile', profilePath, '--out', out]);
    expect(result.stderr).toMatch(/streams \d+\/24/);
    expect(result.stderr).toMatch(/PASS/);
    expect(result.code).toBe(0);
    const report = await readReport(out);
    expect(report.verdict).toBe('pass');
    expect(report.target.embedded).toBe(true);
    expect(report.scenarios.chatStreams!.opened).toBeGreaterThan(0);
  });

  it('exits 1 with the report written when a threshold fails', async () => {
    const out = join(dir, 'threshold');
    const result = await coachbench(['run', '--profile', profilePath, '--out', out, '--quiet', '--threshold', 'chatStreams.eventLatencyMs.p99 < 0.001']);
    expect(result.code).toBe(1);
    const report = await readReport(out);
    expect(report.thresholds).toEqual([expect.objectContaining({ expression: 'chatStreams.eventLatencyMs.p99 < 0.001', status: 'fail' })]);
  });

  it.each([
    [['run', '--profile', 'no-such-profile'], /no such file or built-in profile/],
    [['run', '--duration', 'soon'], /--duration: "soon" is not a duration/],
    [['run', '--threshold', 'chatStreams.eventLatencyMs.p99 <'], /threshold/],
    [['run', '--target', 'http://127.0.0.1:9'], /--target needs --fixtures/],
    [['run', '--frobnicate'], /Unknown argument/],
  ])('exits 2 with one line for %j', async (args, message) => {
    const result = await coachbench(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 naming the problem for a malformed fixtures file', async () => {
    const fixtures = join(dir, 'bad-fixtures.json');
    await writeFile(fixtures, JSON.stringify({ participants: [{ userId: 'p1', chatSessionIds: [] }] }));
    const result = await coachbench(['run', '--target', 'http://127.0.0.1:9', '--fixtures', fixtures], { env: { COACHBENCH_API_KEY: 'k-123456' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('participants[0].chatSessionIds');
    expect(result.stderr).toContain('participants[0].token');
  });

  it('exits 3 when the target cannot be reached', async () => {
    const fixtures = join(dir, 'fixtures.json');
    await writeFile(fixtures, JSON.stringify({ apiKey: 'k-123456', participants: [{ userId: 'p1', token: 't-123456', chatSessionIds: ['c1'] }] }));
    const result = await coachbench(['run', '--profile', profilePath, '--target', 'http://127.0.0.1:9', '--fixtures', fixtures, '--quiet']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/not reachable/);
  });

  it('on SIGINT writes the partial report marked interrupted and exits 130', async () => {
    const out = join(dir, 'interrupted');
    const longProfile = join(dir, 'long.json');
    await writeFile(longProfile, JSON.stringify(quickProfile({ duration: '60s' })));
    const result = await coachbench(['run', '--profile', longProfile, '--out', out], {
      onStart: (pid) => setTimeout(() => process.kill(pid, 'SIGINT'), 1_500),
    });
    expect(result.code).toBe(130);
    const report = await readReport(out);
    expect(report.interrupted).toBe(true);
    expect(report.durationMs).toBeLessThan(10_000);
    expect(report.scenarios.chatStreams!.opened).toBeGreaterThan(0);
  });
});

describe('coachbench run --target (e2e)', () => {
  let target: RunningTarget;
  let fixtures: string;

  beforeAll(async () => {
    target = await startTarget({ participants: 30, sessionsPerParticipant: 2, keepAliveMs: 500 });
    fixtures = join(dir, 'target-fixtures.json');
    // The API key travels in the environment, not in the file or on the command line.
    const { apiKey, ...rest } = target.fixtures;
    await writeFile(fixtures, JSON.stringify(rest));
    void apiKey;
  });
  afterAll(() => target.close());

  it('drives an external target from a fixtures file and COACHBENCH_API_KEY, and never writes the key', async () => {
    const out = join(dir, 'external');
    const result = await coachbench(
      ['run', '--profile', profilePath, '--target', target.url, '--fixtures', fixtures, '--expect-keepalive', '500ms', '--out', out, '--quiet'],
      {
        env: { COACHBENCH_API_KEY: target.fixtures.apiKey },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const text = await readFile(join(out, 'report.json'), 'utf8');
    expect(text).not.toContain(target.fixtures.apiKey);
    expect(text).not.toContain(target.fixtures.coachToken);
    const report = JSON.parse(text) as Report;
    expect(report.target).toEqual({ url: target.url, embedded: false });
    expect(report.scenarios.chatStreams!.keepAliveGapMs.p50).toBeGreaterThan(480);
  });
});
