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
  /** `error-rate=PCT on METHOD PATH`: the share of that route's answers that are 500, by routeKey. */
  routeErrorRates: Record<string, number>;
  /** `latency=MS on METHOD PATH`: the delay of that route's answers, by routeKey, in place of `latencyMs`. */
  routeLatencyMs: Record<string, number>;
  /** `bad-json=PCT on METHOD PATH`: the share of that route's answers whose JSON body is cut short, by routeKey. */
  routeBadJson: Record<string, number>;
  /** Whether any fault is scoped to a route (then each request looks its route up). */
  hasRouteFaults: boolean;
}

/** The settings of the faults scoped to one route, by routeKey. */
type RouteSetting = 'routeErrorRates' | 'routeLatencyMs' | 'routeBadJson';

/**
 * Faults that may be scoped to one route (`on METHOD PATH`), the ones decided per request, and
 * the setting each fills (scoped, `bad-json` cuts answers, not frames).
 */
const ROUTE_SETTING_OF: Readonly<Partial<Record<FaultName, RouteSetting>>> = {
  'error-rate': 'routeErrorRates',
  latency: 'routeLatencyMs',
  'bad-json': 'routeBadJson',
};
const ROUTE_FAULTS = Object.keys(ROUTE_SETTING_OF) as FaultName[];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * A route as faults name it: `METHOD /path` with every parameter segment (`{id}`, `:id`) as
 * `:`, so `PUT /participants/{user_id}/activity_plan_cards/{id}/responses` and the router's
 * `PUT /participants/:userId/activity_plan_cards/:id/responses` are one route.
 */
export function routeKey(method: string, path: string): string {
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') || /^\{[^}]*\}$/.test(segment) ? ':' : segment));
  return `${method.toUpperCase()} /${segments.join('/')}`;
}

/** `METHOD /path` of a fault's `on` part, checked and normalised (routeKey). */
function parseRoute(text: string, where: string): string {
  const match = /^([A-Za-z]+)\s+(\/\S*)$/.exec(text.trim());
  if (!match || !METHODS.includes((match[1] as string).toUpperCase())) {
    throw new ConfigError(
      `${where}: "on ${text.trim()}" is not a route (write it as METHOD /path, e.g. on POST /tags or on GET /participants/{user_id}/chat_sessions/{id})`,
    );
  }
  const path = (match[2] as string).replace(/^\/api\/v1(?=\/)/, '');
  return routeKey(match[1] as string, path);
}

const isFaultName = (name: string): name is FaultName => (ALL_FAULTS as readonly string[]).includes(name);

/**
 * Parses one `--fault` spec: `NAME=PCT` (0..100, an optional `%`) or `latency=MS` (a
 * duration such as `50`, `50ms`, `0.2s`), optionally followed by `@WHEN` (a duration with
 * its unit: `latency=200ms@30s` switches the fault on 30 s after the target starts
 * listening, docs/design.md §4.13). Throws a one-line ConfigError on a bad spec.
 */
export function parseFault(text: string): Fault {
  const where = `--fault ${text}`;
  // `… on METHOD /path` scopes the fault to one route (docs/target.md).
  const on = /\s+on\s+/i.exec(text);
  const spec = on ? text.slice(0, on.index) : text;
  const route = on ? { route: parseRoute(text.slice(on.index + on[0].length), where) } : {};
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new ConfigError(`${where}: expected NAME=VALUE, e.g. drop=5 or latency=50ms`);
  const name = spec.slice(0, eq).trim();
  const at = spec.indexOf('@', eq);
  const raw = spec.slice(eq + 1, at < 0 ? undefined : at).trim();
  const atMs = at < 0 ? undefined : parseDuration(spec.slice(at + 1).trim(), `${where} (after @)`);
  const when = { ...(atMs === undefined ? {} : { atMs }), ...route };
  if (!isFaultName(name)) throw new ConfigError(`${where}: unknown fault "${name}" (one of ${ALL_FAULTS.join(', ')})`);
  if (on && !ROUTE_FAULTS.includes(name)) throw new ConfigError(`${where}: "${name}" cannot be scoped to a route (only ${ROUTE_FAULTS.join(', ')} can)`);
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
  if (fault.route !== undefined && (!ROUTE_FAULTS.includes(fault.name) || typeof fault.route !== 'string'))
    throw new ConfigError(`${where}: cannot be scoped to a route`);
  const route = fault.route === undefined ? {} : { route: parseRoute(fault.route, where) };
  return { name: fault.name, value: fault.value, ...(fault.atMs !== undefined ? { atMs: fault.atMs } : {}), ...route };
}

/** Normalises the option list; when a fault is given twice, the last one wins. */
export function normaliseFaults(list: ReadonlyArray<Fault | string>): Fault[] {
  // A route-scoped fault is a fault of its own: the last of a name and route wins.
  const byName = new Map<string, Fault>();
  for (const entry of list) {
    const fault = typeof entry === 'string' ? parseFault(entry) : checkFault(entry);
    const key = fault.route === undefined ? fault.name : `${fault.name} on ${fault.route}`;
    byName.delete(key);
    byName.set(key, fault);
  }
  return [...byName.values()];
}

const SETTING_OF: Readonly<Record<FaultName, Exclude<keyof FaultSettings, RouteSetting | 'hasRouteFaults'>>> = {
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
  const settings: FaultSettings = {
    keepAliveDrift: 0,
    stall: 0,
    drop: 0,
    errorRate: 0,
    latencyMs: 0,
    duplicate: 0,
    leak: 0,
    badJson: 0,
    resumeGap: 0,
    routeErrorRates: {},
    routeLatencyMs: {},
    routeBadJson: {},
    hasRouteFaults: false,
  };
  for (const fault of faults) if (!fault.atMs) applyFault(settings, fault);
  return settings;
}

function applyFault(settings: FaultSettings, fault: Fault): void {
  const routeSetting = ROUTE_SETTING_OF[fault.name];
  if (fault.route !== undefined && routeSetting !== undefined) {
    settings[routeSetting][fault.route] = fault.value;
    settings.hasRouteFaults = true;
  } else settings[SETTING_OF[fault.name]] = fault.value;
}

/**
 * Switches each `@WHEN` fault on in `settings` (the object every part of the server reads)
 * once its time has come, counted from now. Returns a function that cancels what is pending.
 */
export function scheduleFaults(faults: readonly Fault[], settings: FaultSettings): () => void {
  const timers = faults
    .filter((fault) => fault.atMs)
    .map((fault) => {
      const timer = setTimeout(() => applyFault(settings, fault), fault.atMs);
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
  return `${fault.name}=${value}${fault.atMs ? `@${formatDuration(fault.atMs)}` : ''}${fault.route ? ` on ${fault.route}` : ''}`;
}

/** True with probability `p`. Math.random is enough: faults need a share, not a replay. */
export function chance(p: number): boolean {
  return p > 0 && (p >= 1 || Math.random() < p);
}
