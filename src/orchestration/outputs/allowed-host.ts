/**
 * The Host header check of the live endpoints (`--dashboard`, `--metrics-port`; docs/metrics.md
 * "Host check"). Binding loopback stops other machines, not a web page: a page on
 * attacker.example whose name is re-pointed at 127.0.0.1 (DNS rebinding) is same-origin with
 * what it then fetches, and could read the live run. Its requests still carry its own name
 * in Host, so only names that cannot be rebound are served: `localhost` (and `*.localhost`,
 * which browsers resolve to loopback themselves), any IP literal (an address is not looked
 * up), and the host the endpoint was bound to as given (`--metrics-host`).
 */
import { isIP } from 'node:net';

/** The host name of a Host header value, lower-cased, brackets and port removed; null when it is not one. */
export function hostNameOf(header: string): string | null {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0 || !/^(?::\d{1,5})?$/.test(value.slice(end + 1))) return null;
    return value.slice(1, end);
  }
  const match = /^([^:\s/@]+)(?::\d{1,5})?$/.exec(value);
  return match ? (match[1] as string).replace(/\.$/, '') : null;
}

/** True when a request with this Host header may be answered by an endpoint bound to `boundHost`. */
export function isAllowedHost(header: string | undefined, boundHost: string): boolean {
  if (header === undefined) return false;
  const name = hostNameOf(header);
  if (name === null || name === '') return false;
  if (name === 'localhost' || name.endsWith('.localhost') || isIP(name) !== 0) return true;
  return name === hostNameOf(boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost);
}
