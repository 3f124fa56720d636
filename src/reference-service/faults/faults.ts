/**
 * Fault injection (docs/design.md §4): parsing `--fault NAME=VALUE` specs and the resolved
 * settings the server consults. The exact semantics of each fault are in docs/target.md.
 */

import { formatDuration, parseDuration } from '../../util/duration.js';
import { ConfigError } from '../../util/errors.js';
import type { Fault, FaultName } from '../target-types.js';

const PERCENT_FAULTS: readonly FaultName[] = ['keepalive-drift', 'stall', 'drop', 'error-rate', 'duplicate', 'leak', 'bad-json', 'resume-gap'];
const ALL_FAULTS: readonly FaultName[] = [...PERCENT_FAULTS, 'latency'];

/** Resolved fault settings: probabilities in 0..1 and the latency in ms (0 = off). */
export interface FaultSettings {
  keepAliveDrift: number;
  stall: number;
  drop: number;
  errorRate: number;
  latencyMs: number;
  duplicate: number;
  leak: number;
  badJson: number;
  /** A resumed stream (Last-Event-ID) loses the first event it should have been replayed. */
  resumeGap: number;
}

const isFaultName = (name: string): name is FaultName => (ALL_FAULTS as readonly string[]).includes(name);

/**
 * Parses one `--fault` spec: `NAME=PCT` (0..100, an optional `%`) or `latency=MS` (a
 * duration such as `50`, `50ms`, `0.2s`), optionally followed by `@WHEN` (a duration with
 * its unit: `latency=200ms@30s` switches the fault on 30 s after the target starts
 * listening, docs/design.md §4.13). Throws a one-line ConfigError on a bad spec.
 */
export function parseFault(spec: string): Fault {
  const where = `--fault ${spec}`;
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new ConfigError(`${where}: expected NAME=VALUE, e.g. drop=5 or latency=50ms`);
  const name = spec.slice(0, eq).trim();
  const at = spec.indexOf('@', eq);
  const raw = spec.slice(eq + 1, at < 0 ? undefined : at).trim();
  const atMs = at < 0 ? undefined : parseDuration(spec.slice(at + 1).trim(), `${where} (after @)`);
  const when = atMs === undefined ? {} : { atMs };
  if (!isFaultName(name)) throw new ConfigError(`${where}: unknown fault "${name}" (one of ${ALL_FAULTS.join(', ')})`);
  if (name === 'latency') return { name, value: parseDuration(raw, where, { unitless: 'ms' }), ...when };
  const match = /^(-?\d+(?:\.\d+)?)%?$/.exec(raw);
  if (!match) throw new ConfigError(`${where}: "${raw}" is not a percentage`);
  const percent = Number(match[1]);
  if (!(percent >= 0 && percent <= 100)) throw new ConfigError(`${where}: percentage must be 0..100`);
  return { name, value: percent / 100, ...when };
}

/** Checks an already-parsed Fault (from the API) the same way parseFault checks a spec. */
function checkFault(fault: Fault): Fault {
  const where = `fault ${fault.name}=${fault.value}`;
  if (!isFaultName(fault.name)) throw new ConfigError(`${where}: unknown fault`);
  if (!Number.isFinite(fault.value) || fault.value < 0) throw new ConfigError(`${where}: value must be a non-negative number`);
  if (fault.name !== 'latency' && fault.value > 1) throw new ConfigError(`${where}: fraction must be 0..1`);
  if (fault.atMs !== undefined && !(Number.isFinite(fault.atMs) && fault.atMs >= 0)) throw new ConfigError(`${where}: atMs must be a non-negative number`);
  return { name: fault.name, value: fault.value, ...(fault.atMs !== undefined ? { atMs: fault.atMs } : {}) };
}

/** Normalises the option list; when a fault is given twice, the last one wins. */
export function normaliseFaults(list: ReadonlyArray<Fault | string>): Fault[] {
  const byName = new Map<FaultName, Fault>();
  for (const entry of list) {
    const fault = typeof entry === 'string' ? parseFault(entry) : checkFault(entry);
    byName.delete(fault.name);
    byName.set(fault.name, fault);
  }
  return [...byName.values()];
}

const SETTING_OF: Readonly<Record<FaultName, keyof FaultSettings>> = {
  'keepalive-drift': 'keepAliveDrift',
  stall: 'stall',
  drop: 'drop',
  'error-rate': 'errorRate',
  latency: 'latencyMs',
  duplicate: 'duplicate',
  leak: 'leak',
  'bad-json': 'badJson',
  'resume-gap': 'resumeGap',
};

/**
 * Turns the normalised list into the settings the server reads at the start: absent faults
 * and faults switched on later (`@WHEN`) are 0 until scheduleFaults switches them on.
 */
export function resolveFaults(faults: readonly Fault[]): FaultSettings {
  const settings: FaultSettings = { keepAliveDrift: 0, stall: 0, drop: 0, errorRate: 0, latencyMs: 0, duplicate: 0, leak: 0, badJson: 0, resumeGap: 0 };
  for (const fault of faults) if (!fault.atMs) settings[SETTING_OF[fault.name]] = fault.value;
  return settings;
}

/**
 * Switches each `@WHEN` fault on in `settings` (the object every part of the server reads)
 * once its time has come, counted from now. Returns a function that cancels what is pending.
 */
export function scheduleFaults(faults: readonly Fault[], settings: FaultSettings): () => void {
  const timers = faults
    .filter((fault) => fault.atMs)
    .map((fault) => {
      const timer = setTimeout(() => {
        settings[SETTING_OF[fault.name]] = fault.value;
      }, fault.atMs);
      // A pending fault must not keep a stopped target's process alive.
      timer.unref();
      return timer;
    });
  return () => {
    for (const timer of timers) clearTimeout(timer);
  };
}

/** A fault as `--fault` would spell it: `drop=5%`, `latency=200ms@30s`. */
export function describeFault(fault: Fault): string {
  const value = fault.name === 'latency' ? `${fault.value}ms` : `${+(fault.value * 100).toFixed(3)}%`;
  return `${fault.name}=${value}${fault.atMs ? `@${formatDuration(fault.atMs)}` : ''}`;
}

/** True with probability `p`. Math.random is enough: faults need a share, not a replay. */
export function chance(p: number): boolean {
  return p > 0 && (p >= 1 || Math.random() < p);
}
