/**
 * Helpers for throughput tests: a resolved profile, a run through the engine's
 * runScenarios() whose intervals roll into a total, and check verdicts via the run's own
 * evaluator.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CheckId } from '../../src/contract/check-ids.js';
import type { Profile } from '../../src/contract/profile/profile.js';
import type { ProfileFile } from '../../src/contract/profile/profile-file.js';
import { resolveProfile } from '../../src/contract/profile/resolve-profile.js';
import type { CheckResult } from '../../src/contract/report.js';
import type { CredentialSources } from '../../src/engine/auth/credentials.js';
import { runScenarios } from '../../src/engine/run-scenarios.js';
import type { RunFixtures, Scenario } from '../../src/engine/scenario.js';
import { evaluateChecks } from '../../src/metrics/checks/evaluate-checks.js';
import { buildGeneratorSummary } from '../../src/metrics/generator-summary.js';
import { MetricSet } from '../../src/metrics/metric-set.js';

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
  /** Interval sets rolled up so far; complete after `run()` resolves. */
  total: MetricSet;
  /** Runs the scenarios through the engine's runScenarios(), with 100 ms intervals. */
  run(...scenarios: Scenario[]): Promise<MetricSet>;
  /** Stops early (SIGINT stand-in). */
  abort(): void;
}

/**
 * A run of `scenarios` against `targetUrl` through the same engine entry point as
 * `coachbench run`. Intervals close every 100 ms (as the run's recorder does every second,
 * so a driver that cached a histogram would lose samples). `credentials`: how the run renews
 * a refused token (a token command, a re-read fixtures file), as `--token-command` gives it.
 */
export function testRun(targetUrl: string, fixtures: RunFixtures, profile: Profile, credentials?: CredentialSources): TestRun {
  const total = new MetricSet();
  const stop = new AbortController();
  return {
    total,
    abort: () => stop.abort(),
    async run(...scenarios) {
      await runScenarios({
        scenarios,
        profile,
        targetUrl,
        fixtures,
        keepAlive: { intervalMs: profile.target.keepAliveMs, toleranceMs: 1_000 },
        stop,
        sink: (interval) => total.add(interval),
        intervalMs: 100,
        ...(credentials ? { credentials } : {}),
      });
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

/** The five headers docs/design.md §4 requires on every response. */
export const GOOD_HEADERS = {
  'access-control-allow-headers': 'Accept, Authorization, Content-Type, X-API-Key',
  'access-control-allow-methods': 'GET, POST, PATCH, PUT, DELETE, OPTIONS',
  'access-control-allow-origin': '*',
  'cache-control': 'no-store',
};

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  contentType = 'application/json',
  headers: Record<string, string> = GOOD_HEADERS,
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const EXTENSION_BY_MIME: Readonly<Record<string, string>> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

/**
 * A correct photo answer for an upload: `{ userId, photoUrl }` whose extension names the
 * format of the uploaded image, read from its part's Content-Type (the only image part in
 * the bodies these test servers receive). photo.* checks hold only on such an answer.
 */
export function photoAnswer(upload: Buffer, userId = 'p'): { userId: string; photoUrl: string } {
  const mime = /Content-Type: (image\/[a-z]+)/i.exec(upload.toString('latin1'))?.[1]?.toLowerCase() ?? '';
  return { userId, photoUrl: `https://photos.example/${userId}.${EXTENSION_BY_MIME[mime] ?? 'bin'}` };
}

export function sendProblem(res: ServerResponse, status: number, detail: string, contentType = 'application/problem+json'): void {
  sendJson(res, status, { type: 'about:blank', title: 'Error', status, detail, instance: '' }, contentType);
}
