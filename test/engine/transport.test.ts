import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { autocannonTlsOptions, defaultTransport, tlsConnectOptions, withTransportHeaders } from '../../src/engine/transport.js';
import { testPki } from '../support/certificates.js';

describe('tlsConnectOptions', () => {
  it('shares one SecureContext among all connections of a run (not one per stream)', async () => {
    const pki = await testPki(await mkdtemp(join(tmpdir(), 'coachbench-transport-')));
    const tls = { ...defaultTransport().tls, ca: [pki.ca.cert] };
    const first = tlsConnectOptions(tls);
    expect(first.secureContext).toBeDefined();
    // A context per connection costs memory per stream and blocks the loop (docs/design.md §2.12).
    expect(tlsConnectOptions(tls).secureContext).toBe(first.secureContext);
    expect(first.rejectUnauthorized).toBe(true);
    // autocannon gets the same trust as plain options.
    expect(autocannonTlsOptions(tls).ca).toContain(pki.ca.cert);
  });

  it('uses the default context without --ca or a client certificate, and --insecure turns verification off', () => {
    const tls = defaultTransport().tls;
    expect(tlsConnectOptions(tls)).toEqual({ rejectUnauthorized: true });
    expect(tlsConnectOptions({ ...tls, insecure: true, servername: 'api.test' })).toEqual({ rejectUnauthorized: false, servername: 'api.test' });
  });
});

describe('withTransportHeaders', () => {
  it("adds the run's headers where the request has none of its own", () => {
    expect(withTransportHeaders({ Authorization: 'Bearer t', accept: 'a' }, { 'user-agent': 'ua', authorization: 'nope', 'x-tenant': 't1' })).toEqual({
      'user-agent': 'ua',
      authorization: 'Bearer t',
      accept: 'a',
      'x-tenant': 't1',
    });
  });
});
