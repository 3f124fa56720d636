/**
 * `run`'s transport flags and profile fields resolved into a Transport (engine/transport.ts):
 * certificate files read and checked, `${VAR}` in header values taken from the environment,
 * the proxy mode chosen. Every problem is exit 2 with one line naming the flag or field,
 * before anything connects (docs/design.md §2.12).
 */
import type { ProfileTls } from '../contract/profile/profile.js';
import { DEFAULT_USER_AGENT, type HttpVersion, type ProxySettings, type Transport } from '../engine/transport.js';
import { ConfigError } from '../util/errors.js';
import { CERTIFICATE, PRIVATE_KEY, readPemFile } from '../util/pem-file.js';
import { printable } from '../util/printable.js';
import { registerSecret } from '../util/redact.js';
import type { TraceSettings } from '../util/traceparent.js';

export interface TransportFlags {
  ca?: string[];
  cert?: string;
  key?: string;
  insecure?: boolean;
  servername?: string;
  header?: string[];
  proxy?: string | false;
  /** `--http 1.1|2|auto`. */
  http?: string;
  /** `--no-trace` is false. */
  trace?: boolean;
  /** `--trace-sample 0..1`. */
  traceSample?: string;
}

const HTTP_VERSIONS: readonly HttpVersion[] = ['1.1', '2', 'auto'];

function httpVersionOf(flag: string | undefined): HttpVersion {
  if (flag === undefined) return '1.1';
  const version = HTTP_VERSIONS.find((v) => v === flag.trim());
  if (version === undefined) throw new ConfigError(`--http: "${printable(flag)}" is not one of 1.1, 2, auto`);
  return version;
}

/** Headers the HTTP layer owns: setting them by hand would corrupt the exchange. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive', 'upgrade', 'te', 'trailer']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** `${VAR}` replaced from the environment; a value that came from there is a secret from now on. */
function substitute(value: string, where: string, env: NodeJS.ProcessEnv): string {
  return value.replace(ENV_REFERENCE, (_match, name: string) => {
    const found = env[name];
    if (found === undefined) throw new ConfigError(`${where}: \${${name}} is not set in the environment`);
    registerSecret(found);
    return found;
  });
}

/** One `Name: value` header (flag) or name and value (profile), checked. */
function header(name: string, value: string, where: string, env: NodeJS.ProcessEnv): [string, string] {
  const lower = name.trim().toLowerCase();
  if (!TOKEN.test(lower)) throw new ConfigError(`${where}: "${printable(name)}" is not a header name`);
  if (RESERVED_HEADERS.has(lower)) throw new ConfigError(`${where}: ${lower} is set by the HTTP layer, not by hand`);
  const resolved = substitute(value.trim(), where, env);
  if (/[\r\n\0]/.test(resolved)) throw new ConfigError(`${where}: the value of ${lower} holds a line break or NUL`);
  return [lower, resolved];
}

function parseHeaderFlag(text: string, env: NodeJS.ProcessEnv): [string, string] {
  const colon = text.indexOf(':');
  if (colon <= 0) throw new ConfigError(`--header: "${printable(text)}" must be 'Name: value'`);
  return header(text.slice(0, colon), text.slice(colon + 1), '--header', env);
}

/** `--trace-sample` and `--no-trace` (docs/design.md §2.12): null sends no traceparent. */
function traceOf(flags: TransportFlags): TraceSettings | null {
  if (flags.trace === false) {
    if (flags.traceSample !== undefined) throw new ConfigError('--trace-sample: cannot be used with --no-trace');
    return null;
  }
  if (flags.traceSample === undefined) return { sampleRate: 1 };
  const text = flags.traceSample.trim();
  const rate = text === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(rate) || rate < 0 || rate > 1) throw new ConfigError(`--trace-sample: "${printable(flags.traceSample)}" is not a number from 0 to 1`);
  return { sampleRate: rate };
}

function proxyOf(flag: string | false | undefined): ProxySettings {
  if (flag === false) return { mode: 'none' };
  if (flag === undefined) return { mode: 'env' };
  let url: URL;
  try {
    url = new URL(flag);
  } catch {
    throw new ConfigError(`--proxy: "${printable(flag)}" is not a URL (e.g. http://proxy.corp:3128)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`--proxy: "${printable(flag)}": only http and https proxies are supported`);
  if (url.password) registerSecret(decodeURIComponent(url.password));
  return { mode: 'url', url: url.href };
}

/** Flags win over the profile's `tls` and `headers`; both add to the defaults. */
export function resolveTransport(
  flags: TransportFlags,
  profile: { tls: ProfileTls; headers: Record<string, string>; source: string },
  env: NodeJS.ProcessEnv,
): Transport {
  const caFiles = flags.ca && flags.ca.length > 0 ? flags.ca : profile.tls.ca;
  const certFile = flags.cert ?? profile.tls.cert;
  const keyFile = flags.key ?? profile.tls.key;
  if ((certFile === null) !== (keyFile === null)) {
    throw new ConfigError(
      certFile === null ? '--key needs --cert (a client certificate and its key)' : '--cert needs --key (a client certificate and its key)',
    );
  }
  const headers: Record<string, string> = { 'user-agent': DEFAULT_USER_AGENT };
  for (const [name, value] of Object.entries(profile.headers)) {
    const [key, resolved] = header(name, value, `${profile.source}: headers.${name}`, env);
    headers[key] = resolved;
  }
  for (const text of flags.header ?? []) {
    const [key, value] = parseHeaderFlag(text, env);
    headers[key] = value;
  }
  const key = keyFile === null ? null : readPemFile(keyFile, '--key', PRIVATE_KEY);
  if (key !== null) registerSecret(key);
  return {
    tls: {
      ca: caFiles.map((file) => readPemFile(file, '--ca', CERTIFICATE)),
      cert: certFile === null ? null : readPemFile(certFile, '--cert', CERTIFICATE),
      key,
      insecure: flags.insecure ?? profile.tls.insecure,
      servername: flags.servername ?? profile.tls.servername,
    },
    headers,
    proxy: proxyOf(flags.proxy),
    http: httpVersionOf(flags.http),
    // A traceparent given by hand is sent as given, on every request: none is generated.
    trace: headers.traceparent !== undefined ? null : traceOf(flags),
  };
}
