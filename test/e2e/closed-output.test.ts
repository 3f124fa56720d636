/**
 * A reader that stops early (docs/design.md §2.9, "A closed output"): bin/coachbench.js with
 * its stdout (or stderr) a real pipe whose read end this test closes, as `| head -2` does.
 * Every command ends quietly with its own exit code; a run still writes its report.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../support/bin-helpers.js';
import { quickProfile, writeProfile } from '../support/profiles.js';
import { readRunReport } from '../support/run-report.js';

/**
 * When the test closes its end of a stream: before the child writes anything (the first
 * write fails, whatever the timing), or once the first chunk has arrived (`head`'s way:
 * the writes after it fail).
 */
type Close = 'at-once' | 'after-first-chunk' | 'never';

interface Closed {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** What arrived on the streams left open, and on the closed ones before they closed. */
  stdout: string;
  stderr: string;
  /** True when the deadline ran out and the child was killed. */
  killed: boolean;
}

/** Closes `stream` (the test's read end of the child's pipe) when asked, collecting what arrives before. */
function closeEnd(stream: NodeJS.ReadableStream & { destroy(): void }, when: Close, onData: (chunk: string) => void): void {
  if (when === 'at-once') {
    stream.destroy();
    return;
  }
  stream.on('data', (chunk: Buffer) => {
    onData(chunk.toString());
    if (when === 'after-first-chunk') stream.destroy();
  });
}

/** Runs bin/ with the read ends closed as asked; a child still alive after `deadlineMs` is killed by PID (a hang fails the test). */
function runClosed(args: readonly string[], close: { stdout: Close; stderr: Close }, deadlineMs = 45_000): Promise<Closed> {
  return new Promise((resolve) => {
    const child: ChildProcess = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killed = false;
    closeEnd(child.stdout!, close.stdout, (chunk) => {
      stdout += chunk;
    });
    closeEnd(child.stderr!, close.stderr, (chunk) => {
      stderr += chunk;
    });
    const deadline = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, deadlineMs);
    // 'exit', not 'close': a stream this test destroyed never reports its end.
    child.on('exit', (code, signal) => {
      clearTimeout(deadline);
      resolve({ code, signal, stdout, stderr, killed });
    });
  });
}

describe('a closed stdout or stderr ends no command (e2e)', () => {
  let planProfile: string;

  beforeAll(async () => {
    planProfile = (await writeProfile(quickProfile())).path;
  });

  it('profiles, its stdout closed after the first chunk as by `| head -2`: exit 0, nothing on stderr', async () => {
    // Each profile is one write after a file read: those after the first chunk meet a closed
    // pipe (the cases below close it before the first write, which fails whatever the timing).
    const result = await runClosed(['profiles'], { stdout: 'after-first-chunk', stderr: 'never' });
    expect(result.stdout).toMatch(/^\S+ +\d/);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  // profiles and the run crashed on EPIPE before util/closed-output.ts; the one-write
  // commands happened to exit before the error event, and are held to it here all the same.
  it.each([
    ['profiles', ['profiles']],
    ['plan', ['plan', 'PROFILE']],
    ['plan --json', ['plan', '--json', 'PROFILE']],
    ['--help', ['--help']],
    ['--version', ['--version']],
  ])('%s, its stdout closed before the first write: exit 0, nothing on stderr', async (_name, template) => {
    const args = template.map((arg) => (arg === 'PROFILE' ? planProfile : arg));
    const result = await runClosed(args, { stdout: 'at-once', stderr: 'never' });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('a usage error whose stderr is closed keeps its exit code, 2', async () => {
    const result = await runClosed(['plan', join(planProfile, 'missing.json')], { stdout: 'at-once', stderr: 'at-once' });
    expect(result.code).toBe(2);
  });

  it('run, stdout closed from the start and stderr after its first chunk: the run ends by itself, writes its report, exits by its verdict', async () => {
    const { path, dir } = await writeProfile(quickProfile({ duration: '2s' }));
    const out = join(dir, 'report');
    // Progress lines keep coming on stderr after its first chunk, and the checks come on stdout at the end: both go to closed pipes.
    const result = await runClosed(['run', '--profile', path, '--out', out], { stdout: 'at-once', stderr: 'after-first-chunk' });
    expect(result.killed, 'the run hung on its closed output').toBe(false);
    expect(result.signal).toBeNull();
    const report = await readRunReport(out);
    expect(report.interrupted).toBe(false);
    // The exit code is the run's own: its verdict, whatever it was on this machine.
    expect(result.code).toBe(report.verdict === 'pass' ? 0 : 1);
  }, 60_000);
});
