/**
 * TargetOptions checked and completed with defaults: the plain, JSON-safe configuration a
 * target process (or each worker of a multi-worker target) is built from.
 */
import { availableParallelism } from 'node:os';
import { ConfigError } from '../util/errors.js';
import { normaliseFaults, routeKey } from './faults/faults.js';
import { ALL_ROUTES } from './http/routes/all-routes.js';
import { streamRoutes } from './http/routes/stream-routes.js';
import { loopbackNames, selfSignedIdentity, type TargetTls } from './http/tls-identity.js';
import type { SeedOptions } from './state/seed-data.js';
import type { Fault, TargetOptions } from './target-types.js';

/** Every option resolved. */
export interface TargetConfig {
  host: string;
  port: number;
  keepAliveMs: number;
  faults: Fault[];
  seed: number;
  participants: number;
  sessionsPerParticipant: number;
  apiKey?: string;
  workers: number;
  /** `retry:` sent on each stream open, or null. */
  sseRetryMs: number | null;
  /** How long a bearer token is accepted after it is issued, or null (forever). */
  tokenTtlMs: number | null;
  /** Serve HTTP/2: h2 and HTTP/1.1 over TLS (ALPN), h2c in plain text. */
  http2: boolean;
  /** Send `X-Accel-Buffering: no` on every stream. */
  accelBufferingHeader: boolean;
  /** HTTPS identity, generated already when the options asked for a self-signed one; null: HTTP. */
  tls: TargetTls | null;
  /** `--log-traces FILE`, or null. */
  traceLogFile: string | null;
}

/** Most workers a target forks; beyond the cores they only add IPC hops. */
export const MAX_WORKERS = 64;

const DEFAULTS = { host: '127.0.0.1', port: 0, keepAliveMs: 15_000, participants: 100, sessionsPerParticipant: 3, seed: 1 };

function checkInteger(value: number, name: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${name} must be an integer in ${min}..${max}, got ${value}`);
  return value;
}

/** Resolves `workers`: `auto` is the available cores. */
export function resolveServiceWorkers(workers: number | 'auto' | undefined): number {
  if (workers === 'auto') return Math.min(MAX_WORKERS, availableParallelism());
  return checkInteger(workers ?? 1, 'workers', 1, MAX_WORKERS);
}

/** Checks every option; throws ConfigError on the first bad one. A self-signed identity is made here, once for all workers. */
export async function resolveTargetConfig(options: TargetOptions): Promise<TargetConfig> {
  const host = options.host ?? DEFAULTS.host;
  const tls = options.tls === 'self-signed' ? await selfSignedIdentity(loopbackNames(host)) : (options.tls ?? null);
  const sseRetryMs = options.sseRetryMs ?? null;
  if (sseRetryMs !== null && (!Number.isInteger(sseRetryMs) || sseRetryMs < 0))
    throw new ConfigError(`sse retry must be a whole number of ms >= 0, got ${sseRetryMs}`);
  const checked = checkedOptions(options);
  const tokenTtlMs = options.tokenTtlMs ?? null;
  if (tokenTtlMs !== null && (!Number.isInteger(tokenTtlMs) || tokenTtlMs < 1_000))
    throw new ConfigError(`token ttl must be a whole number of ms, at least 1s, got ${tokenTtlMs}`);
  // Tokens are issued by the process that answers the token request; replicas would not know them.
  if (tokenTtlMs !== null && checked.workers > 1) throw new ConfigError('expiring tokens (--token-ttl) need a single-process target: drop --workers');
  return {
    ...checked,
    host,
    tls,
    sseRetryMs,
    tokenTtlMs,
    http2: options.http2 ?? false,
    accelBufferingHeader: options.accelBufferingHeader ?? true,
    traceLogFile: options.traceLogFile ?? null,
  };
}

/**
 * A fault scoped to a route the service does not serve would never fire: refuse it (exit 2).
 * So would a scoped `bad-json` on a stream route, whose answer is frames, not one JSON body.
 */
function knownRoutes(faults: Fault[]): Fault[] {
  const served = new Set(ALL_ROUTES.map((route) => routeKey(route.method, route.pattern)));
  const streams = new Set(streamRoutes.map((route) => routeKey(route.method, route.pattern)));
  for (const fault of faults) {
    if (fault.route !== undefined && !served.has(fault.route)) {
      throw new ConfigError(`--fault ${fault.name} on ${fault.route}: the reference service serves no such route (see docs/target.md)`);
    }
    if (fault.name === 'bad-json' && fault.route !== undefined && streams.has(fault.route)) {
      throw new ConfigError(
        `--fault bad-json on ${fault.route}: a stream route answers with SSE frames, not a JSON body; the unscoped bad-json=PCT breaks frames (see docs/target.md)`,
      );
    }
  }
  return faults;
}

function checkedOptions(
  options: TargetOptions,
): Omit<TargetConfig, 'host' | 'tls' | 'sseRetryMs' | 'tokenTtlMs' | 'http2' | 'accelBufferingHeader' | 'traceLogFile'> {
  const keepAliveMs = options.keepAliveMs ?? DEFAULTS.keepAliveMs;
  if (!Number.isFinite(keepAliveMs) || keepAliveMs < 10) throw new ConfigError(`keepalive must be at least 10ms, got ${keepAliveMs}`);
  return {
    port: checkInteger(options.port ?? DEFAULTS.port, 'port', 0, 65_535),
    keepAliveMs,
    faults: knownRoutes(normaliseFaults(options.faults ?? [])),
    seed: checkInteger(options.seed ?? DEFAULTS.seed, 'seed', 0, 2 ** 32 - 1),
    participants: checkInteger(options.participants ?? DEFAULTS.participants, 'participants', 1, 1_000_000),
    sessionsPerParticipant: checkInteger(options.sessionsPerParticipant ?? DEFAULTS.sessionsPerParticipant, 'sessions', 1, 1_000),
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    workers: resolveServiceWorkers(options.workers),
  };
}

/** The seed options of a config; a cluster's workers also get the primary's `createdAt`. */
export function seedOptionsOf(config: TargetConfig, createdAt?: string): SeedOptions {
  return {
    seed: config.seed,
    participants: config.participants,
    sessionsPerParticipant: config.sessionsPerParticipant,
    ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
    ...(createdAt !== undefined ? { createdAt } : {}),
  };
}
