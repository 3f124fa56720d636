/**
 * Fault injection (docs/design.md §4): parsing `--fault NAME=VALUE` specs and the resolved
 * settings the server consults. The exact semantics of each fault are in docs/target.md.
 */

import { parseDuration } from '../../util/duration.js';
import { ConfigError } from '../../util/errors.js';
import type { Fault, FaultName } from '../target-types.js';

const PERCENT_FAULTS: readonly FaultName[] = ['keepalive-drift', 'stall', 'drop', 'error-rate', 'duplicate', 'leak', 'bad-json'];
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
}

const isFaultName = (name: string): name is FaultName => (ALL_FAULTS as readonly string[]).includes(name);

/**
 * Parses one `--fault` spec: `NAME=PCT` (0..100, an optional `%`) or `latency=MS` (a
 * duration such as `50`, `50ms`, `0.2s`). Throws a one-line ConfigError on a bad spec.
 */
export function parseFault(spec: string): Fault {
  const where = `--fault ${spec}`;
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new ConfigError(`${where}: expected NAME=VALUE, e.g. drop=5 or latency=50ms`);
  const name = spec.slice(0, eq).trim();
  const raw = spec.slice(eq + 1).trim();
  if (!isFaultName(name)) throw new ConfigError(`${where}: unknown fault "${name}" (one of ${ALL_FAULTS.join(', ')})`);
  if (name === 'latency') return { name, value: parseDuration(raw, where, { unitless: 'ms' }) };
  const match = /^(-?\d+(?:\.\d+)?)%?$/.exec(raw);
  if (!match) throw new ConfigError(`${where}: "${raw}" is not a percentage`);
  const percent = Number(match[1]);
  if (!(percent >= 0 && percent <= 100)) throw new ConfigError(`${where}: percentage must be 0..100`);
  return { name, value: percent / 100 };
}

/** Checks an already-parsed Fault (from the API) the same way parseFault checks a spec. */
function checkFault(fault: Fault): Fault {
  const where = `fault ${fault.name}=${fault.value}`;
  if (!isFaultName(fault.name)) throw new ConfigError(`${where}: unknown fault`);
  if (!Number.isFinite(fault.value) || fault.value < 0) throw new ConfigError(`${where}: value must be a non-negative number`);
  if (fault.name !== 'latency' && fault.value > 1) throw new ConfigError(`${where}: fraction must be 0..1`);
  return { name: fault.name, value: fault.value };
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

/** Turns the normalised list into the settings the server reads (absent faults are 0). */
export function resolveFaults(faults: readonly Fault[]): FaultSettings {
  const value = (name: FaultName): number => faults.find((f) => f.name === name)?.value ?? 0;
  return {
    keepAliveDrift: value('keepalive-drift'),
    stall: value('stall'),
    drop: value('drop'),
    errorRate: value('error-rate'),
    latencyMs: value('latency'),
    duplicate: value('duplicate'),
    leak: value('leak'),
    badJson: value('bad-json'),
  };
}

/** True with probability `p`. Math.random is enough: faults need a share, not a replay. */
export function chance(p: number): boolean {
  return p > 0 && (p >= 1 || Math.random() < p);
}
