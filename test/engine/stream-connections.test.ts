/**
 * Every stream has a connection of its own, but not a connector of its own: the streams of a
 * run share one TLS session cache (http-agent.ts), so a stream opened after another resumes
 * its TLS session as a browser's next connection would, and each stream's one request carries
 * the transport's headers itself (no composed dispatcher per stream). Against a real HTTPS
 * server on 127.0.0.1 with a CA made in the test.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { SseStream, type StreamHost, StreamState } from '../../src/engine/sse-reader.js';
import { defaultTransport, type Transport } from '../../src/engine/transport.js';
import { testPki } from '../support/certificates.js';

interface Arrival {
  socket: TLSSocket;
  resumed: boolean;
  userAgent: string | undefined;
  tenant: string | undefined;
}

const host: StreamHost = { onOpen: () => undefined, onOpenFailed: () => undefined, onData: () => undefined, onDropped: () => undefined };

let server: Server | null = null;
let dir = '';

afterEach(async () => {
  server?.closeAllConnections();
  if (server) await new Promise((resolve) => server?.close(resolve));
  server = null;
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function startTlsSseServer(arrivals: Arrival[]): Promise<{ origin: string; transport: Transport }> {
  dir = await mkdtemp(join(tmpdir(), 'cb-stream-connections-'));
  const pki = await testPki(dir);
  const leaf = await pki.server(['127.0.0.1']);
  server = createServer({ cert: leaf.cert, key: leaf.key }, (req, res) => {
    arrivals.push({
      socket: req.socket as TLSSocket,
      resumed: (req.socket as TLSSocket).isSessionReused(),
      userAgent: req.headers['user-agent'],
      tenant: req.headers['x-tenant'] as string | undefined,
    });
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: {"eventType":"KEEP_ALIVE"}\n\n');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const plain = defaultTransport();
  const transport: Transport = { ...plain, tls: { ...plain.tls, ca: [pki.ca.cert] }, headers: { ...plain.headers, 'x-tenant': 't1' } };
  return { origin: `https://127.0.0.1:${port}`, transport };
}

async function openStream(origin: string, transport: Transport): Promise<SseStream> {
  const stream = new SseStream('main', 0, null);
  await stream.open(
    { origin, path: '/stream', headers: { authorization: 'Bearer t' }, headersTimeoutMs: 5_000, localAddress: null, maxFrameBytes: 65_536, transport },
    host,
  );
  return stream;
}

describe('the streams of one run', () => {
  it('resume the TLS session of an earlier stream, each on a connection of its own, with the transport headers on each', async () => {
    const arrivals: Arrival[] = [];
    const { origin, transport } = await startTlsSseServer(arrivals);
    const first = await openStream(origin, transport);
    expect(first.state).toBe(StreamState.Open);
    // TLS 1.3 sends its session ticket after the handshake: give the client a moment to keep it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const later = await Promise.all([openStream(origin, transport), openStream(origin, transport)]);
    expect(later.map((stream) => stream.state)).toEqual([StreamState.Open, StreamState.Open]);
    expect(new Set(arrivals.map((arrival) => arrival.socket)).size).toBe(3);
    expect(arrivals.map((arrival) => arrival.resumed)).toEqual([false, true, true]);
    expect(new Set(arrivals.map((arrival) => `${arrival.userAgent} ${arrival.tenant}`))).toEqual(new Set([`${transport.headers['user-agent']} t1`]));
    for (const stream of [first, ...later]) stream.close();
  });

  it('of another transport (another run in the same process) do not share its sessions', async () => {
    const arrivals: Arrival[] = [];
    const { origin, transport } = await startTlsSseServer(arrivals);
    const first = await openStream(origin, transport);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const other = await openStream(origin, { ...transport });
    expect(arrivals.map((arrival) => arrival.resumed)).toEqual([false, false]);
    first.close();
    other.close();
  });
});
