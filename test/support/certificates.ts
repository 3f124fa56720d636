/**
 * Certificates made in the test (P-256, SHA-256): a CA, server leaves signed by it for the
 * names a test needs, and a client certificate for mutual TLS, written as PEM files.
 */
import { writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import selfsigned from 'selfsigned';

export interface Pem {
  cert: string;
  key: string;
  certFile: string;
  keyFile: string;
}

const validity = () => {
  const notBeforeDate = new Date(Date.now() - 60_000);
  return { notBeforeDate, notAfterDate: new Date(notBeforeDate.getTime() + 3_600_000) };
};

async function save(dir: string, name: string, cert: string, key: string): Promise<Pem> {
  const certFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  await writeFile(certFile, cert);
  await writeFile(keyFile, key);
  return { cert, key, certFile, keyFile };
}

export interface TestPki {
  ca: Pem;
  /** A server certificate signed by `ca` for `names`. */
  server(names: readonly string[], name?: string): Promise<Pem>;
  /** A client certificate signed by `ca`. */
  client(): Promise<Pem>;
}

export async function testPki(dir: string): Promise<TestPki> {
  const caPems = await selfsigned.generate([{ name: 'commonName', value: 'coachbench test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ...validity(),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true },
    ],
  });
  const ca = await save(dir, 'ca', caPems.cert, caPems.private);
  const signed = async (name: string, usage: 'serverAuth' | 'clientAuth', names: readonly string[]): Promise<Pem> => {
    const pems = await selfsigned.generate([{ name: 'commonName', value: names[0] ?? name }], {
      keyType: 'ec',
      algorithm: 'sha256',
      ...validity(),
      ca: { key: ca.key, cert: ca.cert },
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true },
        { name: 'extKeyUsage', [usage]: true },
        ...(names.length > 0
          ? [{ name: 'subjectAltName' as const, altNames: names.map((n) => (isIP(n) ? { type: 7 as const, ip: n } : { type: 2 as const, value: n })) }]
          : []),
      ],
    });
    return save(dir, name, pems.cert, pems.private);
  };
  return {
    ca,
    server: (names, name = `server-${names.join('-')}`) => signed(name, 'serverAuth', names),
    client: () => signed('client', 'clientAuth', []),
  };
}
