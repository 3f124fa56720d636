/**
 * The live-output flags and addresses: a bad port, host or URL is one line and exit 2 before
 * anything starts; a taken port too, with nothing left listening. The counter routing of
 * src/metrics/exported-metrics.ts sends each internal counter to its exported series.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { exportedCountsOf } from '../../../src/metrics/exported-metrics.js';
import { parseLiveOutputFlags } from '../../../src/orchestration/outputs/output-config.js';
import { startLiveOutputs } from '../../../src/orchestration/outputs/start-outputs.js';
import { ConfigError, ExitCode } from '../../../src/util/errors.js';
import { runBin } from '../../support/bin-helpers.js';
import { freePort } from '../../support/free-port.js';
import { quickProfile, writeProfile } from '../../support/profiles.js';

const quiet = { say: () => undefined, tell: () => undefined, warn: () => undefined };

describe('live-output flags', () => {
  it('default to nothing, 127.0.0.1, and port 5665 for a bare --dashboard', () => {
    expect(parseLiveOutputFlags({})).toEqual({ host: '127.0.0.1', metricsPort: null, dashboardPort: null, otlpUrl: null });
    expect(parseLiveOutputFlags({ dashboard: '', metricsPort: '9464', metricsHost: '0.0.0.0' })).toEqual({
      host: '0.0.0.0',
      metricsPort: 9464,
      dashboardPort: 5665,
      otlpUrl: null,
    });
    expect(parseLiveOutputFlags({ otlp: 'http://127.0.0.1:4318' }).otlpUrl).toBe('http://127.0.0.1:4318/v1/metrics');
    expect(parseLiveOutputFlags({ otlp: 'https://collector.example/otlp/v1/metrics' }).otlpUrl).toBe('https://collector.example/otlp/v1/metrics');
  });

  it.each<[Parameters<typeof parseLiveOutputFlags>[0], string]>([
    [{ metricsPort: '70000' }, '--metrics-port: "70000" must be a port in 0..65535 (0 = any free port)'],
    [{ metricsPort: 'abc' }, '--metrics-port: "abc" must be a port in 0..65535 (0 = any free port)'],
    [{ dashboard: '-1' }, '--dashboard: "-1" must be a port in 0..65535 (0 = any free port)'],
    [{ metricsHost: '0.0.0.0' }, '--metrics-host: give --metrics-port or --dashboard too (it is the address they listen on)'],
    [{ otlp: 'collector:4318' }, '--otlp: "collector:4318": only http and https are supported (OTLP/HTTP)'],
    [{ otlp: 'not a url' }, '--otlp: "not a url" is not a URL (e.g. http://127.0.0.1:4318)'],
  ])('%j is refused: %s', (flags, message) => {
    expect(() => parseLiveOutputFlags(flags)).toThrow(new ConfigError(message));
  });
});

describe('starting the outputs', () => {
  let blocker: Server | null = null;
  afterEach(async () => {
    await new Promise((resolve) => (blocker ? blocker.close(resolve) : resolve(undefined)));
    blocker = null;
  });

  it('refuses a taken port with exit 2 and closes what it had started', async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker?.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as AddressInfo).port;
    const error = await startLiveOutputs({ host: '127.0.0.1', metricsPort: 0, dashboardPort: taken, otlpUrl: null }, quiet).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(ExitCode.usage);
    expect((error as Error).message).toMatch(new RegExp(`^--dashboard: cannot listen on 127\\.0\\.0\\.1:${taken} \\(.*EADDRINUSE`));
  });

  it('serves /metrics and nothing else', async () => {
    const said: string[] = [];
    const outputs = await startLiveOutputs({ host: '127.0.0.1', metricsPort: 0, dashboardPort: null, otlpUrl: null }, { ...quiet, tell: (t) => said.push(t) });
    try {
      const url = /^metrics: (http:\/\/127\.0\.0\.1:\d+)\/metrics$/.exec(said[0] ?? '')?.[1];
      expect(url).toBeDefined();
      const metrics = await fetch(`${url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await metrics.text()).toContain('# TYPE coachbench_events_total counter');
      expect((await fetch(`${url}/`)).status).toBe(404);
    } finally {
      await outputs.close();
    }
  });
});

describe('where the outputs are, with --quiet', () => {
  const profile = (): Promise<string> => writeProfile(quickProfile({ duration: '1s', chatStreams: { participants: 2 } })).then((p) => p.path);

  it('says a port the system chose, the one way to learn it, and not one that was given', async () => {
    const given = await freePort();
    const result = await runBin(['run', '--profile', await profile(), '--quiet', '--metrics-port', '0', '--dashboard', String(given)], {
      deadlineMs: 40_000,
    });
    expect(result.killed, result.stderr).toBe(false);
    expect(result.stderr).toMatch(/^coachbench: metrics: http:\/\/127\.0\.0\.1:\d+\/metrics$/m);
    expect(result.stderr).not.toMatch(/dashboard:/);
  }, 60_000);
});

describe('exportedCountsOf', () => {
  it.each<[string, ReturnType<typeof exportedCountsOf>]>([
    ['chat.events.KEEP_ALIVE', [{ key: 'events', labels: { stream: 'chat', type: 'KEEP_ALIVE' } }]],
    ['main.events.<invalid>', [{ key: 'events', labels: { stream: 'main', type: '<invalid>' } }]],
    ['chat.openFailed', [{ key: 'checkFailures', labels: { check: 'stream.open' } }]],
    ['chat.openFailed.status:503', [{ key: 'streamFailures', labels: { phase: 'open', code: 'status:503' } }]],
    ['chat.dropped.net:ECONNRESET', [{ key: 'streamFailures', labels: { phase: 'drop', code: 'net:ECONNRESET' } }]],
    ['photoUpload.requests', [{ key: 'requests', labels: { scenario: 'photoUpload' } }]],
    ['tagLink.error.timeout:headers', [{ key: 'requestFailures', labels: { scenario: 'tagLink', code: 'timeout:headers' } }]],
    ['check.photo.upload.failures', [{ key: 'checkFailures', labels: { check: 'photo.upload' } }]],
    ['chat.keepAliveViolations', [{ key: 'checkFailures', labels: { check: 'stream.keepalive.cadence' } }]],
    ['chat.heldStreamUs', [{ key: 'streamHeld', labels: {}, scale: 1e-6 }]],
    ['check.photo.upload.runs', []],
    ['photoUpload.error.not-a-code', []],
    ['tagLink.droppedSlots', []],
  ])('%s', (counter, expected) => {
    expect(exportedCountsOf(counter)).toEqual(expected);
  });
});
