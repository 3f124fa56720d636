/**
 * The body of `coachbench serve`, apart from process signals so that tests can drive it:
 * validate flags (ConfigError → exit 2), start the target (one process, or a primary and its
 * `--workers`), write the fixtures file, print one line, serve until `signal` aborts, close
 * cleanly.
 */
import { closeSync, openSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import { formatDuration, parseDuration } from '../util/duration.js';
import { ConfigError, ExitCode } from '../util/errors.js';
import { CERTIFICATE, PRIVATE_KEY, readPemFile } from '../util/pem-file.js';
import { cannotWrite } from '../util/system-error.js';
import { describeFault, normaliseFaults } from './faults/faults.js';
import type { TargetTls } from './http/tls-identity.js';
import { DEFAULT_SERVE_PORT } from './serve-defaults.js';
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
  /** `--sse-retry 2s`: the `retry:` every stream open sends. */
  sseRetry?: string;
  /** `--token-ttl 30s`: bearer tokens expire; POST /_coachbench/tokens issues new ones. */
  tokenTtl?: string;
  /** `--http2`: h2 and HTTP/1.1 over TLS, h2c in plain text. */
  http2?: boolean;
  /** `--no-accel-buffering-header` (yargs' negation): false stops `X-Accel-Buffering: no` on streams. */
  accelBufferingHeader?: boolean;
  /** `--tls self-signed`: HTTPS with a pair generated at start. */
  tls?: string;
  tlsCert?: string;
  tlsKey?: string;
  /** Require client certificates signed by this CA (mutual TLS). */
  tlsClientCa?: string;
  /** Where the certificate clients must trust is written (default: a file in the temp folder). */
  tlsCertOut?: string;
  /** `--log-traces FILE`: a JSON line per request that carried a traceparent. */
  logTraces?: string;
}

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
  const tls = tlsOptionOf(flags);
  if (tls !== undefined) options.tls = tls;
  if (flags.sseRetry !== undefined) options.sseRetryMs = parseDuration(flags.sseRetry, '--sse-retry');
  if (flags.http2) options.http2 = true;
  if (flags.accelBufferingHeader === false) options.accelBufferingHeader = false;
  if (flags.tokenTtl !== undefined) {
    options.tokenTtlMs = parseDuration(flags.tokenTtl, '--token-ttl');
    if (options.tokenTtlMs < 1_000) throw new ConfigError(`--token-ttl: at least 1s, got ${flags.tokenTtl}`);
  }
  if (flags.logTraces !== undefined) options.traceLogFile = traceLogFileOf(flags.logTraces);
  return flags.fixturesOut === undefined ? { options } : { options, fixturesOut: flags.fixturesOut };
}

/** `--log-traces FILE`: opened for appending now, so a bad path is exit 2 before the target listens. */
function traceLogFileOf(path: string): string {
  if (path.trim() === '') throw new ConfigError('--log-traces: needs a file path');
  try {
    closeSync(openSync(path, 'a'));
  } catch (error) {
    throw cannotWrite('--log-traces', path, error);
  }
  return path;
}

/** The reason OpenSSL gives, without its error-code prefix: "key values mismatch". */
function tlsReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^error:[0-9A-F]+:/i, '').replace(/^[^:]*::/, '');
}

/**
 * The PEM texts TLS is built from, checked here so that a file TLS cannot use is one line naming
 * its flag and path (exit 2), not an internal error when the server starts: each file on its own,
 * then the key against the certificate.
 */
function tlsFilesOf(certPath: string, keyPath: string, clientCaPath: string | undefined): TargetTls {
  const cert = readPemFile(certPath, '--tls-cert', CERTIFICATE);
  const key = readPemFile(keyPath, '--tls-key', PRIVATE_KEY);
  const clientCa = clientCaPath === undefined ? undefined : readPemFile(clientCaPath, '--tls-client-ca', CERTIFICATE);
  const usable = (flag: string, path: string, options: SecureContextOptions): void => {
    try {
      createSecureContext(options);
    } catch (error) {
      throw new ConfigError(`${flag} ${path}: ${tlsReason(error)}`);
    }
  };
  usable('--tls-cert', certPath, { cert });
  usable('--tls-key', keyPath, { key });
  if (clientCa !== undefined) usable('--tls-client-ca', clientCaPath!, { ca: clientCa });
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    throw new ConfigError(`--tls-key ${keyPath}: not the key of --tls-cert ${certPath} (${tlsReason(error)})`);
  }
  return { cert, key, ...(clientCa !== undefined ? { clientCa } : {}) };
}

/** `--tls self-signed`, or `--tls-cert` with `--tls-key` (PEM files); `--tls-client-ca` asks clients for certificates. */
function tlsOptionOf(flags: ServeFlags): TargetOptions['tls'] {
  if (flags.tls !== undefined && flags.tls !== 'self-signed')
    throw new ConfigError(`--tls: "${flags.tls}" is not known (use --tls self-signed, or --tls-cert and --tls-key)`);
  if (flags.tls !== undefined && (flags.tlsCert !== undefined || flags.tlsKey !== undefined)) {
    throw new ConfigError('--tls self-signed and --tls-cert/--tls-key: give one identity');
  }
  if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined)) throw new ConfigError('--tls-cert and --tls-key go together');
  if (flags.tls === undefined && flags.tlsCert === undefined) {
    if (flags.tlsClientCa !== undefined) throw new ConfigError('--tls-client-ca needs TLS: add --tls self-signed or --tls-cert/--tls-key');
    return undefined;
  }
  if (flags.tls === 'self-signed') {
    if (flags.tlsClientCa !== undefined) throw new ConfigError('--tls-client-ca: give the server identity with --tls-cert/--tls-key');
    return 'self-signed';
  }
  return tlsFilesOf(flags.tlsCert!, flags.tlsKey!, flags.tlsClientCa);
}

/** Writes the certificate clients must trust (`run --ca FILE`); returns where. */
async function writeCertificate(target: RunningTarget, requested: string | undefined): Promise<string | null> {
  if (target.certificate === null) return null;
  const path = requested ?? join(tmpdir(), `coachbench-serve-${target.port}.pem`);
  try {
    await writeFile(path, target.certificate);
  } catch (error) {
    throw cannotWrite('--tls-cert-out', path, error);
  }
  return path;
}

/** Writes the docs/design.md §3 fixtures file, readable by its owner only (it holds tokens). */
export async function writeFixturesFile(target: RunningTarget, path: string): Promise<void> {
  const { apiKey, coachToken, participants } = target.fixtures;
  try {
    await writeFile(path, `${JSON.stringify({ apiKey, coachToken, participants }, null, 2)}\n`, { mode: 0o600 });
  } catch (error) {
    throw cannotWrite('--fixtures-out', path, error);
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
export function describeServing(
  target: RunningTarget,
  participants: number,
  fixturesOut?: string,
  certificateFile?: string | null,
  accelBufferingHeader = true,
): string {
  const faults = target.faults.map(describeFault);
  return [
    `coachbench serve: ${target.url} (API under /api/v1)`,
    `keepalive ${formatDuration(target.keepAliveMs)}`,
    `${participants} participants`,
    ...describeWorkers(target),
    ...(faults.length > 0 ? [`faults ${faults.join(' ')}`] : []),
    ...(accelBufferingHeader ? [] : ['streams without X-Accel-Buffering: no (a proxy may buffer them)']),
    ...(fixturesOut ? [`fixtures ${fixturesOut}`] : []),
    ...(certificateFile ? [`certificate ${certificateFile} (trust it with run --ca ${certificateFile})`] : []),
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
    const certificateFile = await writeCertificate(target, flags.tlsCertOut);
    print(describeServing(target, target.fixtures.participants.length, fixturesOut, certificateFile, options.accelBufferingHeader ?? true));
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
