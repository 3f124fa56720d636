/**
 * Which proxy, if any, a transport sends a target's requests through (docs/design.md §2.12),
 * said once for the parts that must know it rather than just use it: the closed model, which
 * cannot go through a proxy and must not silently connect directly, and the preflight, which
 * names the proxy that refused. The dispatchers themselves leave the choice to undici's
 * EnvHttpProxyAgent; these are its rules (undici 8, lib/dispatcher/env-http-proxy-agent.js):
 * lower-case variables first, HTTPS_PROXY falling back to HTTP_PROXY, NO_PROXY entries
 * `host`, `.suffix`, `*.suffix`, `host:port`, `[v6]:port` and `*`.
 */
import type { Transport } from './transport.js';

interface NoProxyEntry {
  hostname: string;
  port: number;
  wildcard: boolean;
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

function noProxyEntries(value: string): NoProxyEntry[] {
  const entries: NoProxyEntry[] = [];
  for (const entry of value.split(/[,\s]/)) {
    if (!entry) continue;
    let hostname: string;
    let port = 0;
    const ipv6WithPort = /^\[(.+)\]:(\d+)$/.exec(entry);
    if (ipv6WithPort) {
      hostname = ipv6WithPort[1]!;
      port = Number.parseInt(ipv6WithPort[2]!, 10);
    } else {
      const unbracketed = entry.replace(/^\[(.+)\]$/, '$1');
      const hostPort = (unbracketed.match(/:/g) ?? []).length === 1 ? /^(.+):(\d+)$/.exec(unbracketed) : null;
      hostname = hostPort ? hostPort[1]! : unbracketed;
      port = hostPort ? Number.parseInt(hostPort[2]!, 10) : 0;
    }
    entries.push({
      hostname: hostname
        .replace(/^\*?\./, '')
        .replace(/^(.+)\.$/, '$1')
        .toLowerCase(),
      port,
      wildcard: entry.startsWith('*'),
    });
  }
  return entries;
}

function excluded(url: URL, noProxy: string): boolean {
  let hostname = url.host
    .replace(/:\d*$/, '')
    .replace(/^\[(.+)\]$/, '$1')
    .toLowerCase();
  if (hostname.length > 1 && hostname.endsWith('.')) hostname = hostname.slice(0, -1);
  const port = Number.parseInt(url.port, 10) || DEFAULT_PORTS[url.protocol] || 0;
  for (const entry of noProxyEntries(noProxy)) {
    if (entry.port && entry.port !== port) continue;
    if (entry.hostname === '*') return true;
    if (!entry.wildcard && hostname === entry.hostname) return true;
    if (hostname.endsWith(`.${entry.hostname}`)) return true;
  }
  return false;
}

/**
 * The proxy URL requests to `targetUrl` go through under this transport, or null for a
 * direct connection (`--no-proxy`, no proxy variable, or NO_PROXY naming the target).
 */
export function proxyFor(transport: Transport, targetUrl: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (transport.proxy.mode === 'none') return null;
  if (transport.proxy.mode === 'url') return transport.proxy.url;
  const url = new URL(targetUrl);
  const httpProxy = env.http_proxy ?? env.HTTP_PROXY;
  const proxy = url.protocol === 'https:' ? (env.https_proxy ?? env.HTTPS_PROXY ?? httpProxy) : httpProxy;
  if (!proxy) return null;
  return excluded(url, env.no_proxy ?? env.NO_PROXY ?? '') ? null : proxy;
}

/** The variable a proxy of env mode came from, for messages: `HTTPS_PROXY` or `HTTP_PROXY` (as set, either case). */
export function proxyVariableFor(targetUrl: string, env: NodeJS.ProcessEnv = process.env): string {
  const names = new URL(targetUrl).protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  return names.find((name) => env[name] !== undefined) ?? 'HTTP_PROXY';
}

/** A proxy URL as it may be shown: its origin, never the credentials it may carry. */
export function shownProxy(proxyUrl: string): string {
  try {
    return new URL(proxyUrl).origin;
  } catch {
    return 'the proxy';
  }
}
