/**
 * The live endpoints answer only requests whose Host header names localhost, an IP address
 * or the host they were bound to (docs/metrics.md "Host check"): a DNS-rebinding page, whose
 * requests carry its own name, gets 421 and none of the run's data. Real requests on real
 * sockets, to the dashboard and the Prometheus endpoint started as `run` starts them.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostNameOf, isAllowedHost } from '../../../src/orchestration/outputs/allowed-host.js';
import { DashboardOutput } from '../../../src/orchestration/outputs/dashboard-output.js';
import { PrometheusOutput } from '../../../src/orchestration/outputs/prometheus-output.js';

interface Answer {
  status: number;
  body: string;
}

/** GET `path` from 127.0.0.1:`port` with this Host header; the answer's body up to `maxMs` (an event stream never ends). */
function get(port: number, path: string, host: string, maxMs = 1_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      const done = (): void => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body });
      };
      const timer = setTimeout(() => {
        req.destroy();
        done();
      }, maxMs);
      res.on('end', done);
      res.on('close', done);
    });
    req.on('error', reject);
    req.end();
  });
}

/** An HTTP/1.0 request with no Host header at all, on a raw socket: the status code of the answer. */
function getWithoutHost(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.0\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
    });
    socket.on('close', () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0)));
    socket.on('error', reject);
  });
}

const SESSION = { profileName: 'host-check-secret-profile', targetUrl: 'http://127.0.0.1:1', participants: 3, durationMs: 60_000, thresholds: [] };

let dashboard: DashboardOutput;
let prometheus: PrometheusOutput;
let dashboardPort = 0;
let metricsPort = 0;

beforeAll(async () => {
  dashboard = await DashboardOutput.start('127.0.0.1', 0);
  prometheus = await PrometheusOutput.start('127.0.0.1', 0);
  dashboard.beginSession(SESSION);
  prometheus.beginSession(SESSION);
  dashboardPort = Number(new URL(dashboard.url).port);
  metricsPort = Number(new URL(prometheus.url).port);
});

afterAll(async () => {
  await dashboard?.close();
  await prometheus?.close();
});

const GOOD = (port: number): string[] => [
  'localhost',
  `localhost:${port}`,
  `127.0.0.1:${port}`,
  '127.0.0.1',
  `[::1]:${port}`,
  '[::1]',
  `LOCALHOST:${port}`,
  `10.1.2.3:${port}`,
  `app.localhost:${port}`,
];
const BAD = (port: number): string[] => [
  'attacker.example',
  `attacker.example:${port}`,
  `localhost.attacker.example:${port}`,
  `127.0.0.1.nip.io:${port}`,
  `user@127.0.0.1:${port}`,
  `127.0.0.1:${port}/x`,
];

describe('the dashboard', () => {
  it('serves the page and the live session to loopback names and addresses', async () => {
    for (const host of GOOD(dashboardPort)) {
      const page = await get(dashboardPort, '/', host);
      expect(page.status, host).toBe(200);
      const events = await get(dashboardPort, '/events', host, 300);
      expect(events.status, host).toBe(200);
      expect(events.body, host).toContain('host-check-secret-profile');
    }
  });

  it('answers any other name 421 with none of the run', async () => {
    for (const host of BAD(dashboardPort)) {
      for (const path of ['/', '/events', '/dashboard.js']) {
        const answer = await get(dashboardPort, path, host, 300);
        expect(answer.status, `${host} ${path}`).toBe(421);
        expect(answer.body).not.toContain('host-check-secret-profile');
        expect(answer.body).not.toContain('event:');
      }
    }
    expect(await getWithoutHost(dashboardPort, '/events')).toBe(421);
  });
});

describe('the Prometheus endpoint', () => {
  it('serves /metrics to loopback names and addresses', async () => {
    for (const host of GOOD(metricsPort)) {
      const answer = await get(metricsPort, '/metrics', host);
      expect(answer.status, host).toBe(200);
      expect(answer.body).toContain('host-check-secret-profile');
    }
  });

  it('answers any other name 421 with no metric', async () => {
    for (const host of BAD(metricsPort)) {
      const answer = await get(metricsPort, '/metrics', host);
      expect(answer.status, host).toBe(421);
      expect(answer.body).not.toContain('coachbench_');
    }
    expect(await getWithoutHost(metricsPort, '/metrics')).toBe(421);
  });
});

describe('isAllowedHost', () => {
  it.each([
    ['localhost:9464', '127.0.0.1', true],
    ['metrics.internal:9464', 'metrics.internal', true],
    ['METRICS.internal.', 'metrics.internal', true],
    ['metrics.internal:9464', '127.0.0.1', false],
    ['[fe80::1]:9464', '::', true],
    ['[::1', '127.0.0.1', false],
    ['[::1]x', '127.0.0.1', false],
    ['evil.example', '0.0.0.0', false],
    ['10.0.0.7:9464', '0.0.0.0', true],
  ])('%j on an endpoint bound to %j: %s', (header, bound, allowed) => {
    expect(isAllowedHost(header, bound)).toBe(allowed);
  });

  it('reads the host name out of a Host header', () => {
    expect(hostNameOf('[::1]:80')).toBe('::1');
    expect(hostNameOf('Example.COM:8080')).toBe('example.com');
    expect(hostNameOf('a b')).toBeNull();
  });
});
