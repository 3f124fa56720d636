/**
 * proxyFor (engine/proxy-route.ts) restates undici's EnvHttpProxyAgent rules so that the
 * closed model and the preflight know the route the dispatchers take. The table pins the
 * rules; the second part checks them against undici itself, through a real proxy server
 * that counts the absolute-form requests it is sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvHttpProxyAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyFor, shownProxy } from '../../src/engine/proxy-route.js';
import { defaultTransport, type Transport } from '../../src/engine/transport.js';

const P = 'http://proxy.corp:3128';
const env = (extra: Record<string, string>): NodeJS.ProcessEnv => ({ HTTP_PROXY: P, ...extra });

describe('proxyFor', () => {
  it.each([
    ['http://api.example.com', {}, P],
    ['https://api.example.com', {}, P],
    ['https://api.example.com', { HTTPS_PROXY: 'http://tls-proxy:8080' }, 'http://tls-proxy:8080'],
    ['http://api.example.com', { http_proxy: 'http://lower:1' }, 'http://lower:1'],
    ['http://api.example.com', { NO_PROXY: 'example.com' }, null],
    ['http://example.com', { NO_PROXY: '.example.com' }, null],
    ['http://example.com', { NO_PROXY: '*.example.com' }, P],
    ['http://api.example.com', { NO_PROXY: '*.example.com' }, null],
    ['http://api.example.com:8080', { NO_PROXY: 'api.example.com:9090' }, P],
    ['http://api.example.com:8080', { NO_PROXY: 'api.example.com:8080' }, null],
    ['http://127.0.0.1:7080', { NO_PROXY: 'localhost, 127.0.0.1' }, null],
    ['http://[::1]:7080', { NO_PROXY: '[::1]:7080' }, null],
    ['http://anything', { NO_PROXY: '*' }, null],
    ['http://API.Example.com.', { no_proxy: 'api.example.com', NO_PROXY: '' }, null],
  ])('%s with %j: %s', (url, extra, expected) => {
    expect(proxyFor(defaultTransport(), url, env(extra))).toBe(expected);
  });

  it('follows --proxy and --no-proxy whatever the environment says', () => {
    const flagged: Transport = { ...defaultTransport(), proxy: { mode: 'url', url: 'http://flag:1' } };
    expect(proxyFor(flagged, 'http://a', env({ NO_PROXY: '*' }))).toBe('http://flag:1');
    expect(proxyFor({ ...defaultTransport(), proxy: { mode: 'none' } }, 'http://a', env({}))).toBeNull();
    expect(proxyFor(defaultTransport(), 'http://a', {})).toBeNull();
  });

  it('shows a proxy without its credentials', () => {
    expect(shownProxy('http://user:secret@proxy.corp:3128/')).toBe('http://proxy.corp:3128');
  });
});

describe('proxyFor agrees with undici', () => {
  let proxy: Server;
  let target: Server;
  let proxyUrl: string;
  let targetPort: number;
  beforeAll(async () => {
    proxy = createServer((_req, res) => res.writeHead(200).end('via proxy'));
    target = createServer((_req, res) => res.writeHead(200).end('direct'));
    await Promise.all([proxy, target].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    targetPort = (target.address() as AddressInfo).port;
  });
  afterAll(() => Promise.all([proxy, target].map((server) => new Promise((resolve) => server.close(resolve)))));

  it.each([
    [''],
    ['127.0.0.1'],
    ['localhost,127.0.0.1:PORT'],
    ['127.0.0.1:1'],
    ['*'],
    ['.0.0.1'],
    ['*.0.0.1'],
    ['127.0.0.2'],
  ])('NO_PROXY=%j', async (noProxy) => {
    const value = noProxy.replace('PORT', String(targetPort));
    const url = `http://127.0.0.1:${targetPort}`;
    const agent = new EnvHttpProxyAgent({ httpProxy: proxyUrl, noProxy: value });
    try {
      const response = await agent.request({ origin: url, path: '/', method: 'GET' });
      const body = await response.body.text();
      const expected = proxyFor(defaultTransport(), url, { HTTP_PROXY: proxyUrl, NO_PROXY: value });
      expect(body).toBe(expected === null ? 'direct' : 'via proxy');
    } finally {
      await agent.close();
    }
  });
});
