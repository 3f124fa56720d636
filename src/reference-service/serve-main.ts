/**
 * The body of `coachbench serve`, apart from process signals so that tests can drive it:
 * validate flags (ConfigError → exit 2), start the target (one process, or a primary and its
 * `--workers`), write the fixtures file, print one line, serve until `signal` aborts, close
 * cleanly.
 */
import { writeFile } from 'node:fs/promises';
import { formatDuration, parseDuration } from '../util/duration.js';
import { ConfigError, ExitCode } from '../util/errors.js';
import { describeFault, normaliseFaults } from './faults/faults.js';
import { startTarget } from './start-target.js';
import { MAX_WORKERS } from './target-config.js';
import type { RunningTarget, TargetOptions } from './target-types.js';

/** The flags as yargs hands them over (strings, so that bad numbers are reported, not NaN). */
export interface ServeFlags {
  port?: string | number;
  host?: string;
  keepalive?: string | number;
  participants?: string | number;
  sessions?: string | number;
  seed?: string | number;
  fixturesOut?: string;
  fault?: Array<string | number>;
  /** Worker processes: a count or `auto` (available cores). */
  workers?: string | number;
}

/** The default `serve` port (a fixed one, so that `curl` examples work). */
export const DEFAULT_SERVE_PORT = 7080;

function integerFlag(value: string | number | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const number = Number(text);
  if (!/^\d+$/.test(text) || number < min || number > max) throw new ConfigError(`${flag}: "${text}" must be an integer in ${min}..${max}`);
  return number;
}

function workersFlag(value: string | number): number | 'auto' {
  const text = String(value).trim();
  if (text === 'auto') return 'auto';
  const number = Number(text);
  if (!/^\d+$/.test(text) || number < 1 || number > MAX_WORKERS) throw new ConfigError(`--workers: "${text}" must be an integer in 1..${MAX_WORKERS} or auto`);
  return number;
}

/** Validates every flag; throws one ConfigError line on the first bad one. */
export function resolveServeOptions(flags: ServeFlags): { options: TargetOptions; fixturesOut?: string } {
  const host = flags.host ?? '127.0.0.1';
  if (host.trim() === '') throw new ConfigError('--host: must not be empty');
  const keepAliveMs = flags.keepalive === undefined ? undefined : parseDuration(flags.keepalive, '--keepalive');
  if (keepAliveMs !== undefined && keepAliveMs < 10) throw new ConfigError(`--keepalive: must be at least 10ms, got ${flags.keepalive}`);
  const options: TargetOptions = {
    host,
    port: integerFlag(flags.port, '--port', 0, 65_535) ?? DEFAULT_SERVE_PORT,
    faults: normaliseFaults((flags.fault ?? []).map(String)),
  };
  const optional = {
    keepAliveMs,
    participants: integerFlag(flags.participants, '--participants', 1, 1_000_000),
    sessionsPerParticipant: integerFlag(flags.sessions, '--sessions', 1, 1_000),
    seed: integerFlag(flags.seed, '--seed', 0, 2 ** 32 - 1),
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) Object.assign(options, { [key]: value });
  if (flags.workers !== undefined) options.workers = workersFlag(flags.workers);
  if (flags.fixturesOut !== undefined && flags.fixturesOut.trim() === '') throw new ConfigError('--fixtures-out: needs a file path');
  return flags.fixturesOut === undefined ? { options } : { options, fixturesOut: flags.fixturesOut };
}

/** Writes the docs/design.md §3 fixtures file, readable by its owner only (it holds tokens). */
export async function writeFixturesFile(target: RunningTarget, path: string): Promise<void> {
  const { apiKey, coachToken, participants } = target.fixtures;
  try {
    await writeFile(path, `${JSON.stringify({ apiKey, coachToken, participants }, null, 2)}\n`, { mode: 0o600 });
  } catch (error) {
    throw new ConfigError(`--fixtures-out ${path}: cannot write (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

// Descriptors a worker needs besides its streams (stdio, IPC, epoll, timers' fds, spare).
const RESERVED_FDS = 100;

/** "3 workers, ~19,900 streams each (open-file limit 20000)": what one machine can hold. */
function describeWorkers(target: RunningTarget): string[] {
  const workers = target.workers ?? [];
  if (workers.length === 0) return [];
  const limits = workers.map((w) => w.fdLimit).filter((limit): limit is number => limit !== null);
  if (limits.length < workers.length) return [`${workers.length} workers`];
  const lowest = Math.min(...limits);
  return [`${workers.length} workers, ~${Math.max(0, lowest - RESERVED_FDS).toLocaleString('en-US')} streams each (open-file limit ${lowest})`];
}

/** The one start-up line; names no secret. */
export function describeServing(target: RunningTarget, participants: number, fixturesOut?: string): string {
  const faults = target.faults.map(describeFault);
  return [
    `coachbench serve: ${target.url} (API under /api/v1)`,
    `keepalive ${formatDuration(target.keepAliveMs)}`,
    `${participants} participants`,
    ...describeWorkers(target),
    ...(faults.length > 0 ? [`faults ${faults.join(' ')}`] : []),
    ...(fixturesOut ? [`fixtures ${fixturesOut}`] : []),
  ].join(', ');
}

/**
 * Serves until `signal` aborts, then closes; returns exit code 0. Under `--workers`, a worker
 * that dies (already reported on stderr by the target) stops the target: exit code 1.
 */
export async function serveUntil(flags: ServeFlags, signal: AbortSignal, print: (line: string) => void): Promise<number> {
  const { options, fixturesOut } = resolveServeOptions(flags);
  const target = await startTarget(options);
  let code: number = ExitCode.ok;
  try {
    if (fixturesOut !== undefined) await writeFixturesFile(target, fixturesOut);
    print(describeServing(target, target.fixtures.participants.length, fixturesOut));
    if (!signal.aborted) {
      await new Promise<void>((resolve) => {
        signal.addEventListener('abort', () => resolve(), { once: true });
        void target.failed?.then(() => {
          code = ExitCode.failed;
          resolve();
        });
      });
    }
  } finally {
    await target.close();
  }
  return code;
}
