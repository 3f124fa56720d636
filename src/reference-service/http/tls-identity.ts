/**
 * The reference target's TLS identity (`serve --tls-cert/--tls-key`, `--tls self-signed`,
 * profile `target.tls`), so that coachbench is proven over HTTPS against a real TLS server.
 * A self-signed pair is generated at start (P-256, SHA-256, valid for a day) for the
 * loopback names; its certificate is its own CA, so a run trusts it with `--ca CERT`.
 * The generator (selfsigned, with its X.509 stack, costly to load: docs/benchmarks.md) is
 * loaded only when a pair is asked for.
 */
import { isIP } from 'node:net';

/** PEM texts the HTTPS server is built from; `clientCa` asks every client for a certificate signed by it. */
export interface TargetTls {
  cert: string;
  key: string;
  clientCa?: string;
}

/** Names a loopback target is reached by, and the host it listens on. */
export function loopbackNames(host: string): string[] {
  return [...new Set(['127.0.0.1', 'localhost', '::1', host].filter((name) => name !== '0.0.0.0' && name !== '::'))];
}

export async function selfSignedIdentity(names: readonly string[]): Promise<TargetTls> {
  const { default: selfsigned } = await import('selfsigned');
  const notBeforeDate = new Date(Date.now() - 60_000);
  const pems = await selfsigned.generate([{ name: 'commonName', value: names[0] ?? 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate: new Date(notBeforeDate.getTime() + 24 * 3_600_000),
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: names.map((name) => (isIP(name) ? { type: 7 as const, ip: name } : { type: 2 as const, value: name })) },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
