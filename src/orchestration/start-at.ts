/**
 * `run --start-at`: shards that start together (docs/design.md §2.2). A run resolves its
 * configuration, starts its target or checks it, spawns its workers and opens its outputs,
 * and then waits for one wall-clock instant shared by every shard, so N pods scheduled
 * minutes apart apply the profile's load together. A shard that arrives late refuses.
 */
import { parseDuration } from '../util/duration.js';
import { ConfigError } from '../util/errors.js';
import { printable } from '../util/printable.js';

/** Farther ahead than this is a typo, not a plan. */
const MAX_AHEAD_MS = 24 * 3_600_000;
/** The last stretch is waited out in short steps: a timer alone can fire a few ms late. */
const FINE_WAIT_MS = 30;

/** RFC 3339 with a zone (`2026-11-24T14:00:00Z`, `...+01:00`), optional fraction. */
const RFC_3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** `--start-at` as epoch ms: an RFC 3339 time with its zone, or `+30s` from now. */
export function parseStartAt(text: string, nowMs: number, flag = '--start-at'): number {
  const value = text.trim();
  let atMs: number;
  if (value.startsWith('+')) {
    atMs = nowMs + parseDuration(value.slice(1), flag);
  } else {
    atMs = RFC_3339.test(value) ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(atMs)) {
      throw new ConfigError(`${flag}: "${printable(value)}" is not an RFC 3339 time with a zone (e.g. 2026-11-24T14:00:00Z) or +DURATION (e.g. +30s)`);
    }
  }
  if (atMs - nowMs > MAX_AHEAD_MS) throw new ConfigError(`${flag}: ${new Date(atMs).toISOString()} is more than 24h away`);
  return atMs;
}

/**
 * Refuses a start time that has passed: a shard that started late would not run beside its
 * peers, and the merged load would not be the profile's (exit 2 with one line).
 */
export function refuseLateStart(atMs: number, nowMs: number, flag = '--start-at'): void {
  if (nowMs <= atMs) return;
  throw new ConfigError(
    `${flag}: ${new Date(atMs).toISOString()} passed ${((nowMs - atMs) / 1_000).toFixed(1)} s ago, before this run was ready; ` +
      'it would run late beside the others: start every shard again with a later time',
  );
}

/** Resolves at `atMs` (wall clock, to about a millisecond), or at once when `signal` aborts. */
export async function waitUntil(atMs: number, signal: AbortSignal): Promise<void> {
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
  while (!signal.aborted && atMs - Date.now() > FINE_WAIT_MS) await sleep(Math.min(atMs - Date.now() - FINE_WAIT_MS, 60_000));
  while (!signal.aborted && Date.now() < atMs) await sleep(1);
}
