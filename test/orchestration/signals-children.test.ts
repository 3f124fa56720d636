/**
 * What a run starts dies with it (docs/design.md §2.8), checked by PID through /proc: a stop
 * signal while the first --token-command runs ends the run at once (143, one line, no report
 * folder) and the command with it; a SIGKILLed driver, which runs no code of its own at its
 * end, leaves neither its token command nor its --workers processes behind. A first token
 * command that prints a token over the bound (engine/auth/token-command.ts MAX_TOKEN_BYTES)
 * stops the run before it starts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childPids, commandLine, once, runBin, runIsUnderWay } from '../support/bin-helpers.js';
import { profileFile, quickProfile } from '../support/profiles.js';

let work: string;
let silent: Server;
let silentUrl: string;
let fixtures: string;
let profile: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'coachbench-signal-children-'));
  // The run never gets past its token command: this target is never asked anything.
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  fixtures = join(work, 'fixtures.json');
  await writeFile(fixtures, JSON.stringify({ participants: [{ userId: 'p1', token: 't-123456', chatSessionIds: ['c1'] }] }));
  profile = await profileFile(work, 'quick', quickProfile({ duration: '60s' }));
});
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
  await rm(work, { recursive: true, force: true });
});

/** Every process below `pid`, through /proc. */
function descendants(pid: number): number[] {
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of childPids(queue.shift()!)) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** True while `pid` runs; a zombie (ended, not yet reaped by its parent) has ended. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Polls until `pids` have all ended (zombies count as ended); returns those still alive after `ms`. */
async function stillAliveAfter(pids: number[], ms: number): Promise<number[]> {
  const until = performance.now() + ms;
  for (;;) {
    const left = pids.filter(alive);
    if (left.length === 0 || performance.now() > until) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The PID of the process running `argv` below `root`, polled until it appears. */
async function findBelow(root: number, argv: string[], ms = 20_000): Promise<number> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    for (const pid of descendants(root)) {
      try {
        if (commandLine(pid).join(' ') === argv.join(' ')) return pid;
      } catch {
        // Ended while we looked.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no process ${argv.join(' ')} appeared below ${root}`);
}

const tokenRun = (out: string, seconds: string): string[] => [
  'run',
  '--profile',
  profile,
  '--target',
  silentUrl,
  '--fixtures',
  fixtures,
  '--token-command',
  `sleep ${seconds}`,
  '--out',
  out,
];

describe('the first --token-command', () => {
  it('SIGTERM while it runs ends the run at once: 143, one line, no report folder, the command gone', async () => {
    const out = join(work, 'token-sigterm');
    let pid = 0;
    const found = new Promise<number>((resolve, reject) => {
      const started = setInterval(() => {
        if (pid === 0) return;
        clearInterval(started);
        findBelow(pid, ['sleep', '77.25']).then(resolve, reject);
      }, 20);
    });
    let signalledAt = 0;
    let sleepPid = 0;
    const result = await runBin(tokenRun(out, '77.25'), {
      env: { COACHBENCH_API_KEY: 'k-123456' },
      deadlineMs: 40_000,
      onSpawn: (child) => {
        pid = child;
        void found.then((sleeper) => {
          sleepPid = sleeper;
          signalledAt = performance.now();
          process.kill(child, 'SIGTERM');
        });
      },
    });
    const endedAt = performance.now();
    expect(sleepPid, 'the token command was seen running').toBeGreaterThan(0);
    expect(result.code, result.stderr).toBe(143);
    expect(endedAt - signalledAt, 'ms from the signal to the exit').toBeLessThan(5_000);
    expect(result.stderr).toContain('coachbench: stopped by SIGTERM before the load started; no report was written');
    expect(result.stderr).not.toMatch(/did not answer|exit 3|\n\s+at /);
    expect(existsSync(out)).toBe(false);
    expect(await stillAliveAfter([sleepPid], 3_000)).toEqual([]);
  }, 60_000);

  it('SIGKILL of the driver while it runs kills the command too (its guard sees the driver gone)', async () => {
    const out = join(work, 'token-sigkill');
    let sleepPid = 0;
    let below: number[] = [];
    const result = await runBin(tokenRun(out, '77.5'), {
      env: { COACHBENCH_API_KEY: 'k-123456' },
      deadlineMs: 40_000,
      onSpawn: (child) => {
        void findBelow(child, ['sleep', '77.5']).then((sleeper) => {
          sleepPid = sleeper;
          below = descendants(child);
          process.kill(child, 'SIGKILL');
        });
      },
    });
    expect(result.signal).toBe('SIGKILL');
    expect(sleepPid, 'the token command was seen running').toBeGreaterThan(0);
    expect(below.length, 'the guard, its shell and the command').toBeGreaterThanOrEqual(2);
    expect(await stillAliveAfter(below, 5_000), 'processes of the run still alive 5 s after its driver was SIGKILLed').toEqual([]);
  }, 60_000);
});

describe('the first --token-command printing a 10 MB token', () => {
  it('is a run that did not start: exit 3, one line naming the bound, no load', async () => {
    const out = join(work, 'token-huge');
    const command = `${JSON.stringify(process.execPath)} -e ${JSON.stringify('process.stdout.write("x".repeat(10 * 1024 * 1024))')}`;
    const args = tokenRun(out, '0');
    args[args.indexOf('sleep 0')] = command;
    const result = await runBin(args, { env: { COACHBENCH_API_KEY: 'k-123456' }, deadlineMs: 40_000 });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr.trim()).toBe(
      'coachbench: --token-command printed a token of 10485760 bytes, over the 8 KiB limit for one token; the run did not start',
    );
  }, 60_000);
});

describe('--workers', () => {
  it('SIGKILL of the driver mid-run ends its worker processes', async () => {
    const out = join(work, 'workers-sigkill');
    let workers: number[] = [];
    const result = await runBin(['run', '--profile', profile, '--workers', '2', '--out', out], {
      deadlineMs: 40_000,
      onStderr: once(runIsUnderWay, (pid) => {
        workers = childPids(pid);
        process.kill(pid, 'SIGKILL');
      }),
    });
    expect(result.signal).toBe('SIGKILL');
    expect(workers, 'the two driver workers').toHaveLength(2);
    expect(await stillAliveAfter(workers, 3_000), 'workers still alive 3 s after their parent was SIGKILLed').toEqual([]);
  }, 60_000);
});
