/**
 * Runs bin/coachbench.js (built dist/) as a child process: exit code or signal, what it
 * printed, how long it took. A hook sees stderr as it arrives (to signal the run by PID or
 * fill its disk mid-run); a deadline kills the child by PID so a hang fails the test
 * instead of stalling it.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { quickProfile } from './run-helpers.js';

export const BIN = new URL('../../bin/coachbench.js', import.meta.url).pathname;

export interface BinResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  elapsedMs: number;
  /** True when the deadline ran out and the child was killed. */
  killed: boolean;
}

export interface BinOptions {
  /** Called with the child's PID once it is spawned. */
  onSpawn?: (pid: number) => void;
  /** Called with the child's PID and stderr so far, on every stderr chunk. */
  onStderr?: (pid: number, stderr: string) => void;
  /** Kill the child (SIGKILL, by PID) after this long; default 45 s, under the tests' 60 s timeouts. */
  deadlineMs?: number;
  env?: Record<string, string>;
}

export function runBin(args: readonly string[], options: BinOptions = {}): Promise<BinResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killed = false;
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    const deadline = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, options.deadlineMs ?? 45_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (child.pid !== undefined) options.onStderr?.(child.pid, stderr);
    });
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      resolve({ code, signal, stdout, stderr, elapsedMs: performance.now() - started, killed });
    });
  });
}

/** Writes the quick test profile with the given duration into `dir`; returns its path. */
export async function quickProfileFile(dir: string, duration: string): Promise<string> {
  const path = join(dir, `quick-${duration}.json`);
  await writeFile(path, JSON.stringify(quickProfile({ duration })));
  return path;
}

/** Resolves once, the first time `predicate(stderr)` holds; for use inside onStderr. */
export function once(predicate: (stderr: string) => boolean, action: (pid: number) => void): (pid: number, stderr: string) => void {
  let done = false;
  return (pid, stderr) => {
    if (done || !predicate(stderr)) return;
    done = true;
    action(pid);
  };
}

/** The first progress line of a run (`[1s/4s]  streams ...`) has been printed. */
export const runIsUnderWay = (stderr: string): boolean => /\[\d+s\/\d+[hms]/.test(stderr);
