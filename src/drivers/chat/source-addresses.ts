/**
 * Source addresses for stream sockets. Linux searches its ephemeral-port table linearly per
 * connect() to one destination: past many thousand connections to a single ip:port each
 * connect costs milliseconds (docs/benchmarks.md, "Figures behind the code"). The whole 127.0.0.0/8 is loopback on Linux, so streams to
 * a loopback target are spread over 127.0.0.2–127.0.0.17; elsewhere the kernel chooses.
 */
import { isIPv4 } from 'node:net';

const SPREAD = 16;

export function sourceAddressesFor(targetOrigin: string, platform: NodeJS.Platform = process.platform): string[] {
  if (platform !== 'linux') return [];
  const host = new URL(targetOrigin).hostname;
  const loopback = host === 'localhost' || (isIPv4(host) && host.startsWith('127.'));
  if (!loopback) return [];
  return Array.from({ length: SPREAD }, (_, i) => `127.0.0.${i + 2}`);
}
