/**
 * The live-output flags of `run` (docs/design.md §2): `--metrics-port`, `--metrics-host`,
 * `--otlp` and `--dashboard [PORT]`, checked before anything starts.
 */
import { ConfigError } from '../../util/errors.js';
import { printable } from '../../util/printable.js';

/** `--dashboard` without a port: k6's dashboard port, which people watching load tests know. */
export const DEFAULT_DASHBOARD_PORT = 5665;
export const DEFAULT_METRICS_HOST = '127.0.0.1';

export interface LiveOutputFlags {
  metricsPort?: string;
  metricsHost?: string;
  otlp?: string;
  /** `''` when given without a port. */
  dashboard?: string;
}

export interface LiveOutputConfig {
  /** The address /metrics and the dashboard listen on. */
  host: string;
  metricsPort: number | null;
  dashboardPort: number | null;
  /** The OTLP/HTTP metrics endpoint, e.g. http://127.0.0.1:4318/v1/metrics. */
  otlpUrl: string | null;
}

/** A port 0..65535 written as digits (0 = any free port). */
export function parsePort(text: string, flag: string): number {
  const trimmed = text.trim();
  const port = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || port > 65_535) throw new ConfigError(`${flag}: "${printable(text)}" must be a port in 0..65535 (0 = any free port)`);
  return port;
}

/** An http(s) URL; one without a path gets the OTLP metrics path `/v1/metrics`. */
export function parseOtlpUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`--otlp: "${printable(text)}" is not a URL (e.g. http://127.0.0.1:4318)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`--otlp: "${printable(text)}": only http and https are supported (OTLP/HTTP)`);
  if (url.pathname === '/' && url.search === '') url.pathname = '/v1/metrics';
  return url.toString();
}

export function parseLiveOutputFlags(flags: LiveOutputFlags): LiveOutputConfig {
  const metricsPort = flags.metricsPort === undefined ? null : parsePort(flags.metricsPort, '--metrics-port');
  const dashboardPort = flags.dashboard === undefined ? null : flags.dashboard === '' ? DEFAULT_DASHBOARD_PORT : parsePort(flags.dashboard, '--dashboard');
  if (flags.metricsHost !== undefined && metricsPort === null && dashboardPort === null) {
    throw new ConfigError('--metrics-host: give --metrics-port or --dashboard too (it is the address they listen on)');
  }
  const host = (flags.metricsHost ?? DEFAULT_METRICS_HOST).trim();
  if (host === '') throw new ConfigError('--metrics-host: empty (e.g. 127.0.0.1, or 0.0.0.0 in a pod)');
  return { host, metricsPort, dashboardPort, otlpUrl: flags.otlp === undefined ? null : parseOtlpUrl(flags.otlp) };
}
