/**
 * Signals through bin/ (spawned, signalled by PID): SIGTERM exits 143 and SIGINT 130, both
 * with the partial report written and marked interrupted; the first signal ends the run even
 * while the target is still being checked (before any load: one line, no report folder); after it, no handler of ours is left, so a
 * second signal gets the default action and ends the process at once.
 */

import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onStopSignal, type StopSignal } from '../../src/orchestration/signals.js';
import { once, runBin, runIsUnderWay } from '../support/bin-helpers.js';
import { profileFile, quickProfile } from '../support/profiles.js';
import { readRunReport } from '../support/run-report.js';

let work: string;
let longProfile: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'coachbench-signals-'));
  longProfile = await profileFile(work, 'quick', quickProfile({ duration: '60s' }));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('a stop signal during the run', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)(
    '%s: exits %i with the partial report marked interrupted',
    async (signal, exitCode) => {
      const out = join(work, signal);
      const result = await runBin(['run', '--profile', longProfile, '--out', out], {
        onStderr: once(runIsUnderWay, (pid) => process.kill(pid, signal)),
      });
      expect(result.killed).toBe(false);
      expect(result.code, result.stderr).toBe(exitCode);
      expect(result.stderr).toMatch(/\(interrupted\)/);
      const report = await readRunReport(out);
      expect(report.interrupted).toBe(true);
      expect(report.durationMs).toBeLessThan(20_000);
      expect(report.scenarios.chatStreams!.opened).toBeGreaterThan(0);
    },
    60_000,
  );
});

describe('a stop signal while the run waits on a slow target', () => {
  it('cuts the drain short: answers 4 s late do not hold the exit past 2 s of the signal', async () => {
    // Every event delivery and non-stream answer waits 4 s: at the stop, uploads and tag links
    // are in flight, which a run's own end gives a 2 s grace.
    const requests = { enabled: true, ratePerSec: 10, maxInFlight: 8 };
    const slow = await profileFile(
      work,
      'slow',
      quickProfile({
        duration: '60s',
        target: { keepAlive: '500ms', participants: 30, sessionsPerParticipant: 2, faults: ['latency=4000'] },
        photoUpload: requests,
        tagLink: requests,
      }),
    );
    const out = join(work, 'slow');
    let signalledAt = 0;
    const started = performance.now();
    const result = await runBin(['run', '--profile', slow, '--out', out], {
      // 2.5 s into the load: messages have been posted and are waiting for their delivery.
      onStderr: once(runIsUnderWay, (pid) =>
        setTimeout(() => {
          signalledAt = performance.now();
          process.kill(pid, 'SIGTERM');
        }, 2_500),
      ),
    });
    expect(result.code, result.stderr).toBe(143);
    // 2 s is the guarantee, and the margin is thin on purpose: before the short drain, the
    // requests' 2 s grace alone held the exit, which then came 2.5-3 s after the signal.
    expect(started + result.elapsedMs - signalledAt, 'ms from the signal to the exit').toBeLessThan(2_300);
    expect((await readRunReport(out)).interrupted).toBe(true);
  }, 60_000);
});

describe('a stop signal before the load starts', () => {
  let silent: Server;
  let silentUrl: string;
  let fixtures: string;
  let onRequest: () => void = () => undefined;

  beforeAll(async () => {
    // Answers nothing: the reachability check would wait 10 s for it.
    silent = createServer(() => onRequest());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    fixtures = join(work, 'fixtures.json');
    await writeFile(fixtures, JSON.stringify({ participants: [{ userId: 'p1', token: 't-123456', chatSessionIds: ['c1'] }] }));
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('SIGTERM while the target is being checked ends the run at once: 143, one line, no report folder left', async () => {
    const out = join(work, 'preflight');
    let pid = 0;
    let signalledAt = 0;
    onRequest = () => {
      // The first request is the reachability check: signal while it waits.
      onRequest = () => undefined;
      signalledAt = performance.now();
      process.kill(pid, 'SIGTERM');
    };
    const started = performance.now();
    const result = await runBin(['run', '--profile', longProfile, '--target', silentUrl, '--fixtures', fixtures, '--out', out], {
      env: { COACHBENCH_API_KEY: 'k-123456' },
      onSpawn: (child) => {
        pid = child;
      },
      deadlineMs: 30_000,
    });
    expect(signalledAt, 'the check reached the target').toBeGreaterThan(0);
    expect(result.code, result.stderr).toBe(143);
    expect(result.stderr).not.toMatch(/not reachable|\n\s+at /);
    expect(started + result.elapsedMs - signalledAt, 'ms from the signal to the exit').toBeLessThan(5_000);
    expect(result.stderr).toContain('coachbench: stopped by SIGTERM before the load started; no report was written');
    expect(existsSync(out), 'the report folder this run made').toBe(false);
  }, 60_000);
});

describe('a stop signal while the CLI loads', () => {
  it('SIGINT before run has taken the signals over still prints its line: 130, no report folder', async () => {
    const out = join(work, 'loading');
    // A real signal at a fixed point of the start-up: the process sends it to itself as bin/
    // asks for the CLI bundle, after bin's first lines ran and before any of the CLI did.
    const preload = [
      "import { registerHooks } from 'node:module';",
      'let sent = false;',
      'registerHooks({ resolve(specifier, context, next) {',
      '  const resolved = next(specifier, context);',
      "  if (!sent && resolved.url.endsWith('/dist/bundle/main.js')) { sent = true; process.kill(process.pid, 'SIGINT'); }",
      '  return resolved;',
      '} });',
    ].join('\n');
    const result = await runBin(['run', '--profile', longProfile, '--out', out], {
      env: { NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(preload)}` },
      deadlineMs: 30_000,
    });
    expect({ code: result.code, signal: result.signal }, result.stderr).toEqual({ code: 130, signal: null });
    expect(result.stderr.trim()).toBe('coachbench: stopped by SIGINT before the load started; no report was written');
    expect(existsSync(out), 'a report folder').toBe(false);
  }, 60_000);
});

describe('onStopSignal', () => {
  it('passes the signal on and leaves no handler behind, so a second signal gets the default action', () => {
    const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    const received: StopSignal[] = [];
    const remove = onStopSignal((signal) => received.push(signal));
    const ours = process.listeners('SIGTERM').filter((listener) => !before.SIGTERM.includes(listener));
    expect(ours).toHaveLength(1);
    // Called directly: emitting a real signal would reach the test runner's own handlers too.
    (ours[0] as (signal: NodeJS.Signals) => void)('SIGTERM');
    expect(received).toEqual(['SIGTERM']);
    expect(process.listeners('SIGTERM')).toEqual(before.SIGTERM);
    expect(process.listeners('SIGINT')).toEqual(before.SIGINT);
    remove();
  });
});
