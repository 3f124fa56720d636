/**
 * Following a slow request into the target (docs/design.md §2.12): `coachbench serve
 * --log-traces FILE` in a child process, a short `run --target` against it, then every trace
 * id report.json lists among the slowest (run totals and per interval) is found in what the
 * target logged, with the span id kept beside it as the parent id, on the request it names: PATCH profile_photo, POST tags, and for the worst
 * deliveries the POST chat_messages of the message behind them.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlowRequest } from '../../src/contract/encoded-metrics.js';
import type { Report } from '../../src/contract/report.js';
import type { TraceLogLine } from '../../src/reference-service/http/trace-log.js';
import { runBin } from '../support/bin-helpers.js';
import { profileFile } from '../support/profiles.js';
import { readRunReport } from '../support/run-report.js';
import { type ServeProcess, startServe } from '../support/serve-process.js';

const PROFILE = {
  name: 'trace-join',
  duration: '3s',
  keepAliveTolerance: '40%',
  chatStreams: { participants: 6, rampPerSec: 100, switchEvery: '2s', messageRatePerSec: 10, churnRatePerSec: 1 },
  photoUpload: { enabled: true, model: 'open', ratePerSec: 10, imageSizes: ['2KiB'] },
  tagLink: { enabled: true, model: 'open', ratePerSec: 20, maxInFlight: 16 },
  generator: { maxEventLoopDelayP99: '2s' },
};

let dir = '';
let server: ServeProcess | null = null;
let report: Report;
let html = '';
let runDir = '';
const logged = new Map<string, TraceLogLine>();

/** `coachbench serve` logging the traceparent of every request it receives to `traceLog`. */
async function serve(fixtures: string, traceLog: string): Promise<string> {
  server = await startServe(fixtures, ['--keepalive', '500ms', '--participants', '12', '--log-traces', traceLog]);
  return server.url;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-trace-join-'));
  const profile = await profileFile(dir, 'profile', PROFILE);
  const fixtures = join(dir, 'fixtures.json');
  const traceLog = join(dir, 'traces.jsonl');
  const url = await serve(fixtures, traceLog);
  const out = join(dir, 'run');
  runDir = out;
  const args = [
    'run',
    '-p',
    profile,
    '-t',
    url,
    '-f',
    fixtures,
    '--expect-keepalive',
    '500ms',
    '-o',
    out,
    '-q',
    '--trace-url',
    'https://tempo.example/trace/{traceId}',
  ];
  const result = await runBin(args, { deadlineMs: 40_000 });
  expect(result.killed, result.stderr).toBe(false);
  expect([0, 1], result.stderr).toContain(result.code);
  await server?.stop();
  report = await readRunReport(out);
  html = await readFile(join(out, 'report.html'), 'utf8');
  for (const line of (await readFile(traceLog, 'utf8')).split('\n')) {
    if (line === '') continue;
    const entry = JSON.parse(line) as TraceLogLine;
    logged.set(entry.traceId, entry);
  }
}, 90_000);

afterAll(async () => {
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const PATHS: Record<string, RegExp> = {
  photoUpload: /^PATCH \/api\/v1\/participants\/[^/]+\/profile_photo$/,
  tagLink: /^POST \/api\/v1\/admin\/tags\/new_and_link\/participant$/,
  'chatStreams.delivery': /^POST \/api\/v1\/participants\/[^/]+\/chat_messages$/,
};

describe('a report slowest requests, joined with the target trace log (e2e)', () => {
  it('logs one line per traced request the target received, streams included', () => {
    expect(logged.size).toBeGreaterThan(50);
    const kinds = new Set([...logged.values()].map((line) => `${line.method} ${line.path.endsWith('/stream') ? 'stream' : ''}`));
    expect([...kinds]).toEqual(expect.arrayContaining(['GET stream', 'PATCH ', 'POST ']));
    for (const line of logged.values()) {
      expect(line.sampled).toBe(true);
      expect(line.handlingMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('finds every slowest trace id of the run on the request it names, faster at the target than at the client', () => {
    const slowest = report.metrics.slowest ?? {};
    expect(Object.keys(slowest).sort()).toEqual(['chatStreams.delivery', 'photoUpload', 'tagLink']);
    for (const [key, list] of Object.entries(slowest)) {
      expect(list.length, key).toBe(5);
      for (const slow of list) {
        const line = logged.get(slow.traceId);
        expect(line, `${key} ${slow.traceId}`).toBeDefined();
        expect(`${line!.method} ${line!.path}`).toMatch(PATHS[key]!);
        expect([200, 201]).toContain(line!.status);
        // The span id kept beside it is the traceparent's parent id the target received.
        expect(slow.spanId, `${key} ${slow.traceId}`).toBe(line!.parentId);
        // The target's time is part of the client's latency (for a delivery, the POST's part).
        if (key !== 'chatStreams.delivery') expect(line!.handlingMs).toBeLessThanOrEqual(slow.latencyMs);
      }
    }
  });

  it('finds every interval slowest trace id too, and the run slowest among the intervals', () => {
    const perInterval: SlowRequest[] = [];
    for (const point of report.timeseries) for (const list of Object.values(point.slowest ?? {})) perInterval.push(...list);
    expect(perInterval.length).toBeGreaterThan(15);
    for (const slow of perInterval) expect(logged.has(slow.traceId), slow.traceId).toBe(true);
    const ids = new Set(perInterval.map((slow) => slow.traceId));
    for (const slow of report.metrics.slowest?.tagLink ?? []) expect(ids.has(slow.traceId)).toBe(true);
  });

  it('links the slowest trace ids in report.html through --trace-url, and report --trace-url replaces the template', async () => {
    expect(report.traceUrl).toBe('https://tempo.example/trace/{traceId}');
    for (const slow of report.metrics.slowest?.tagLink ?? []) expect(html).toContain(`<a href="https://tempo.example/trace/${slow.traceId}"`);
    const other = join(dir, 'other.html');
    const result = await runBin(['report', join(runDir, 'report.json'), '--html', other, '--trace-url', 'http://127.0.0.1:3200/t/{traceId}'], {
      deadlineMs: 30_000,
    });
    expect(result.code, result.stderr).toBe(0);
    const first = report.metrics.slowest?.photoUpload?.[0]?.traceId ?? '';
    expect(await readFile(other, 'utf8')).toContain(`<a href="http://127.0.0.1:3200/t/${first}"`);
  });
});
