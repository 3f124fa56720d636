/**
 * W3C trace context through the CLI (docs/design.md §2.12): a recording forwarder in front of
 * the reference target sees the traceparent of every request and stream open of a run, the
 * closed model's autocannon requests included; `--trace-sample` and `--no-trace` change them.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveTransport } from '../../src/orchestration/transport-config.js';
import { ConfigError } from '../../src/util/errors.js';
import { runBin } from '../support/bin-helpers.js';
import { type ForwardedRuns, startForwardedRuns } from '../support/forwarded-runs.js';
import { type SeenRequest, startRecordingForwarder } from '../support/forwarder.js';
import { readRunReport } from '../support/run-report.js';

const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-(01|00)$/;

let runs: ForwardedRuns;

beforeAll(async () => {
  runs = await startForwardedRuns('coachbench-trace-', 20);
});
afterAll(() => runs.target.close());

async function throughForwarder(runProfile: string, name: string, flags: string[]): Promise<SeenRequest[]> {
  const forwarder = await startRecordingForwarder(runs.target.url);
  try {
    const args = ['run', '-p', runProfile, '-t', forwarder.url, '-f', runs.fixtures, '--expect-keepalive', '500ms', '-q', '-o', join(runs.dir, name), ...flags];
    const result = await runBin(args);
    expect(result.code, result.stderr).toBeLessThanOrEqual(1);
  } finally {
    forwarder.close();
  }
  return forwarder.seen;
}

const kindOf = (s: SeenRequest): string => (s.path.endsWith('/stream') ? 'stream' : s.method);

describe('traceparent', () => {
  it('is on every request and stream open of a run, each with its own trace id, sampled', async () => {
    const seen = await throughForwarder(runs.profile, 'default', []);
    expect([...new Set(seen.map(kindOf))]).toEqual(expect.arrayContaining(['stream', 'PATCH', 'POST']));
    const traceIds = new Set<string>();
    for (const request of seen) {
      const value = String(request.headers.traceparent ?? '');
      expect(value, `${request.method} ${request.path}`).toMatch(TRACEPARENT);
      expect(value.endsWith('-01')).toBe(true);
      traceIds.add(value.slice(3, 35));
    }
    expect(traceIds.size).toBe(seen.length);
  }, 60_000);

  it('is on every request of the closed model (autocannon), one per request, its ids kept among the slowest', async () => {
    const seen = await throughForwarder(runs.closedProfile, 'closed', []);
    const patches = seen.filter((s) => s.method === 'PATCH');
    expect(patches.length).toBeGreaterThan(20);
    for (const request of patches) expect(String(request.headers.traceparent ?? '')).toMatch(TRACEPARENT);
    expect(new Set(patches.map((s) => s.headers.traceparent)).size).toBe(patches.length);
    // The slowest keep the trace id and the parent id (as spanId) of the traceparent sent.
    const report = await readRunReport(join(runs.dir, 'closed'));
    const sent = new Map(patches.map((s) => String(s.headers.traceparent)).map((value) => [value.slice(3, 35), value.slice(36, 52)]));
    const slowest = report.metrics.slowest?.photoUpload ?? [];
    expect(slowest).toHaveLength(5);
    for (const slow of slowest) expect(slow.spanId, slow.traceId).toBe(sent.get(slow.traceId));
  }, 60_000);

  it('carries flag 00 under --trace-sample 0, and is absent under --no-trace', async () => {
    const unsampled = await throughForwarder(runs.profile, 'sample0', ['--trace-sample', '0']);
    expect(unsampled.length).toBeGreaterThan(20);
    for (const request of unsampled) expect(String(request.headers.traceparent ?? '')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    const none = await throughForwarder(runs.profile, 'none', ['--no-trace']);
    expect(none.length).toBeGreaterThan(20);
    expect(none.filter((s) => s.headers.traceparent !== undefined)).toEqual([]);
  }, 90_000);
});

describe('--trace-sample and --no-trace', () => {
  const profileOf = () => ({ tls: { ca: [], cert: null, key: null, servername: null, insecure: false }, headers: {}, source: 'p.json' });
  it.each([
    [{ traceSample: '1.5' }, '--trace-sample: "1.5" is not a number from 0 to 1'],
    [{ traceSample: 'half' }, '--trace-sample: "half" is not a number from 0 to 1'],
    [{ traceSample: '' }, '--trace-sample: "" is not a number from 0 to 1'],
    [{ traceSample: '0.5', trace: false }, '--trace-sample: cannot be used with --no-trace'],
  ])('%j is refused', (flags, message) => {
    expect(() => resolveTransport(flags, profileOf(), {})).toThrow(ConfigError);
    expect(() => resolveTransport(flags, profileOf(), {})).toThrow(message);
  });

  it('resolves to the sample rate, none under --no-trace or a hand-set traceparent', () => {
    expect(resolveTransport({}, profileOf(), {}).trace).toEqual({ sampleRate: 1 });
    expect(resolveTransport({ traceSample: '0.1' }, profileOf(), {}).trace).toEqual({ sampleRate: 0.1 });
    expect(resolveTransport({ trace: false }, profileOf(), {}).trace).toBeNull();
    const fixed = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    expect(resolveTransport({ header: [`traceparent: ${fixed}`] }, profileOf(), {}).trace).toBeNull();
  });
});
