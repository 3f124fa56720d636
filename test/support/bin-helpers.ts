/**
 * Runs bin/coachbench.js (built dist/) as a child process: exit code or signal, what it
 * printed, how long it took. A hook sees stderr as it arrives (to signal the run by PID or
 * fill its disk mid-run); a deadline kills the child by PID so a hang fails the test
 * instead of stalling it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
  /** Node's own flags, before bin/coachbench.js (a module to preload with --import). */
  nodeArgs?: readonly string[];
  /** The child's working directory; default this process's. */
  cwd?: string;
}

export function runBin(args: readonly string[], options: BinOptions = {}): Promise<BinResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    // A hang at the deadline is asked for Node's diagnostic report first (what the loop was
    // holding), so a CI failure says where the run stuck, not only that it did.
    const reportDir = mkdtempSync(join(tmpdir(), 'coachbench-hang-'));
    const reportFlags = ['--report-on-signal', `--report-signal=${HANG_REPORT_SIGNAL}`, `--report-directory=${reportDir}`];
    const child = spawn(process.execPath, [...reportFlags, ...(options.nodeArgs ?? []), BIN, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    const deadline = setTimeout(() => {
      killed = true;
      child.kill(HANG_REPORT_SIGNAL);
      setTimeout(() => {
        child.kill('SIGKILL');
      }, 1_000).unref();
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
      const elapsedMs = performance.now() - started;
      void hangSummary(killed ? reportDir : null).then(async (hang) => {
        await rm(reportDir, { recursive: true, force: true });
        resolve({ code, signal, stdout, stderr: hang === '' ? stderr : `${stderr}\n${hang}`, elapsedMs, killed });
      });
    });
  });
}

/** Node's report-on-signal signal; nothing in coachbench handles it. */
const HANG_REPORT_SIGNAL = 'SIGUSR2';

/** The diagnostic report of a child killed at its deadline, as lines: its JS stack and the libuv handles it held by type. */
async function hangSummary(reportDir: string | null): Promise<string> {
  if (reportDir === null) return '';
  const files = await readdir(reportDir).catch(() => [] as string[]);
  const file = files.find((name) => name.endsWith('.json'));
  if (file === undefined) return 'hung at the deadline; no diagnostic report was written';
  const report = JSON.parse(await readFile(join(reportDir, file), 'utf8')) as {
    javascriptStack?: { message?: string; stack?: string[] };
    libuv?: { type: string; is_active?: boolean }[];
  };
  const handles = new Map<string, number>();
  for (const handle of report.libuv ?? []) if (handle.is_active) handles.set(handle.type, (handles.get(handle.type) ?? 0) + 1);
  const stack =
    [report.javascriptStack?.message ?? '', ...(report.javascriptStack?.stack ?? []).slice(0, 8)].join('\n  ').trim() || 'none (the loop was idle, waiting)';
  return `hung at the deadline; active handles: ${[...handles].map(([type, n]) => `${type} ${n}`).join(', ')}\nJS stack: ${stack}`;
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

/** A progress line's head: `[1s/4s]  streams ...`, or `[1.1s/2s]` when its tick came late. */
const PROGRESS_LINE = /\[\d+(\.\d+)?s\/\d+[hms]/g;

/** How many progress lines a run has printed (one per merged interval at --progress-every 1s). */
export const progressLines = (stderr: string): number => (stderr.match(PROGRESS_LINE) ?? []).length;

/** The first progress line of a run has been printed. */
export const runIsUnderWay = (stderr: string): boolean => progressLines(stderr) > 0;

/** The progress line says all `streams` are open (`streams 12/12`). */
export const allStreamsOpen =
  (streams: number) =>
  (stderr: string): boolean =>
    stderr.includes(`streams ${streams}/${streams}`);

/** A run's closing lines at the end of its stderr: the verdict, each failure or missing evidence, where the report is. */
const CLOSING_LINES = /(?:^|\n)(?:PASS|FAIL|INCOMPLETE)\b[^\n]*\n(?: {2}[✗?] [^\n]*\n)*report: [^\n]*\n?$/;

/**
 * What a run printed besides its closing lines, which it prints even with --quiet (docs/design.md
 * §2.2): '' for a quiet run that had nothing to warn about. Without closing lines, all of it.
 */
export function besidesClosingLines(stderr: string): string {
  const match = CLOSING_LINES.exec(stderr);
  if (match === null) return stderr;
  return stderr.slice(0, match.index + (match[0].startsWith('\n') ? 1 : 0));
}

/** PIDs whose parent is `parentPid`, found through /proc; one that ends while we look is left out. */
export function childPids(parentPid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parentPid) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** A process's argv, from /proc (throws when it has ended). */
export const commandLine = (pid: number): string[] => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
