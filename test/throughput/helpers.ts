/**
 * Helpers for throughput tests: a resolved profile, a ScenarioContext whose interval
 * MetricSet is rolled into a total and reset every 100 ms (as the run's recorder does, so a
 * driver that cached a histogram would lose samples), and check verdicts via the run's own
 * evaluator.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent } from 'undici';
import type { CheckId } from '../../src/checks/check-ids.js';
import { evaluateChecks } from '../../src/checks/evaluate-checks.js';
import { buildGeneratorSummary } from '../../src/metrics/generator-summary.js';
import { MetricSet } from '../../src/metrics/metric-set.js';
import type { ProfileFile } from '../../src/profile/profile-file.js';
import type { Profile } from '../../src/profile/profile-types.js';
import { resolveProfile } from '../../src/profile/resolve-profile.js';
import type { CheckResult } from '../../src/report/report-types.js';
import type { RunFixtures, Scenario, ScenarioContext } from '../../src/run/scenario.js';

export function testProfile(durationMs: number, photo: ProfileFile['photoUpload'] = {}, tags: ProfileFile['tagLink'] = {}): Profile {
  return resolveProfile(
    {
      name: 'throughput-test',
      duration: `${durationMs}ms`,
      chatStreams: { enabled: false },
      photoUpload: { enabled: true, imageSizes: ['16KiB'], formats: ['jpeg', 'png', 'webp'], ...photo },
      tagLink: { enabled: true, ...tags },
    },
    'test',
  );
}

export interface TestRun {
  ctx: ScenarioContext;
  /** Interval sets rolled up so far; complete after `run()` resolves. */
  total: MetricSet;
  run(...scenarios: Scenario[]): Promise<MetricSet>;
  /** Stops early (SIGINT stand-in). */
  abort(): void;
}

export function testRun(apiBase: string, fixtures: RunFixtures, profile: Profile): TestRun {
  const total = new MetricSet();
  const interval = new MetricSet();
  const controller = new AbortController();
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  const runStartMs = performance.now();
  const ctx: ScenarioContext = {
    apiBase,
    fixtures,
    profile,
    metrics: interval,
    dispatcher,
    runStartMs,
    endMs: runStartMs + profile.durationMs,
    expectKeepAliveMs: profile.target.keepAliveMs,
    keepAliveToleranceMs: 1_000,
    signal: controller.signal,
  };
  const roll = (): void => {
    total.add(interval);
    interval.reset();
  };
  return {
    ctx,
    total,
    abort: () => controller.abort(),
    async run(...scenarios) {
      const roller = setInterval(roll, 100);
      const stopAt = setTimeout(() => controller.abort(), Math.max(0, ctx.endMs - performance.now()));
      try {
        await Promise.all(scenarios.map((s) => s.run(ctx)));
      } finally {
        clearInterval(roller);
        clearTimeout(stopAt);
        roll();
        await dispatcher.close();
      }
      return total;
    },
  };
}

/** The run's check verdicts for the request-level checks, from the evidence in `total`. */
export function checksOf(total: MetricSet): Record<CheckId, CheckResult> {
  const generator = buildGeneratorSummary(total, { maxEventLoopDelayP99Ms: 1_000, processes: 1, rssBytes: 0 });
  const results = evaluateChecks({ total, chat: null, generator });
  return Object.fromEntries(results.map((r) => [r.id, r])) as Record<CheckId, CheckResult>;
}

export const statusOf = (total: MetricSet, id: CheckId): CheckResult['status'] => checksOf(total)[id].status;

export interface TestServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** A plain node:http server on 127.0.0.1:0 (for behaviours the reference target cannot fake). */
export async function startServer(handler: RequestListener): Promise<TestServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads a whole request body. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The five headers DESIGN.md requires on every response. */
export const GOOD_HEADERS = {
  'access-control-allow-headers': 'Accept, Authorization, Content-Type, X-API-Key',
  'access-control-allow-methods': 'GET, POST, PATCH, PUT, DELETE, OPTIONS',
  'access-control-allow-origin': '*',
  'cache-control': 'no-store',
};

export function sendJson(res: ServerResponse, status: number, body: unknown, contentType = 'application/json', headers: Record<string, string> = GOOD_HEADERS): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendProblem(res: ServerResponse, status: number, detail: string, contentType = 'application/problem+json'): void {
  sendJson(res, status, { type: 'about:blank', title: 'Error', status, detail, instance: '' }, contentType);
}
