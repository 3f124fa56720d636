/**
 * The `requests` scenario against the embedded reference target (docs/design.md §2.15): the
 * api-mix kinds pass; a fault on one route fails exactly that kind (its errors, its threshold,
 * and `requests.expectations` by its name) while the others hold; each expectation that does
 * not hold fails under its failure code; and the report shows the kinds.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import { validateReport } from '../../src/contract/validate-report.js';
import { runBin } from '../support/bin-helpers.js';
import { freePort } from '../support/free-port.js';
import { writeProfile } from '../support/profiles.js';
import { failures, runProfile, statusOf } from '../support/run-helpers.js';
import { readRunReport } from '../support/run-report.js';

const API_MIX = new URL('../../profiles/api-mix.json', import.meta.url);

/**
 * api-mix's kinds and setup as shipped, shortened for a test: 3 s at 20 req/s, the generator
 * bound and latency thresholds relaxed for a loaded CI machine (the kinds are untouched).
 */
async function apiMix(overrides: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const shipped = JSON.parse(await readFile(API_MIX, 'utf8')) as Record<string, unknown> & { requests: Record<string, unknown> };
  return {
    ...shipped,
    name: 'api-mix-test',
    duration: '3s',
    warmup: '0s',
    generator: { maxEventLoopDelayP99: '250ms' },
    requests: { ...shipped.requests, ratePerSec: 20 },
    thresholds: ['requests.linkTags.errorRate < 0.001', 'requests.createTags.errorRate < 0.001', 'requests.getChatSession.errorRate < 0.001'],
    ...overrides,
  };
}

const kindsOf = (report: Report) => report.scenarios.requests ?? {};

describe('the requests scenario on the reference target', () => {
  it('api-mix: every kind is answered as expected, and the report shows each', async () => {
    const { report, exitCode, outDir } = await runProfile(await apiMix());
    const kinds = kindsOf(report);
    expect(Object.keys(kinds)).toHaveLength(10);
    for (const [name, kind] of Object.entries(kinds)) {
      expect(kind.requests, name).toBeGreaterThan(0);
      expect(kind.errors, `${name}: ${JSON.stringify(kind.errorsByKind)}`).toBe(0);
      expect(kind.latencyMs.count, name).toBe(kind.requests);
    }
    expect(kinds.undoCardResponse!.statusCodes).toEqual({ '204': kinds.undoCardResponse!.requests });
    expect(kinds.createParticipant!.statusCodes).toEqual({ '201': kinds.createParticipant!.requests });
    const status = statusOf(report);
    expect(status['requests.expectations'], failures(report).join('\n')).toBe('pass');
    expect(report.coreChecks).toContain('requests.expectations');
    expect(
      report.thresholds.every((threshold) => threshold.status === 'pass'),
      failures(report).join('\n'),
    ).toBe(true);
    if (status['generator.healthy'] === 'pass') expect(exitCode).toBe(0);
    // Every request carried a traceparent: each kind keeps the trace ids of its slowest.
    for (const name of Object.keys(kinds)) expect(report.metrics.slowest?.[`requests.${name}`]?.length, name).toBeGreaterThan(0);
    // report.json, scenarios.requests included, follows schemas/report.schema.json.
    expect(validateReport(await readRunReport(outDir))).toEqual({ valid: true, errors: [] });
    // Each kind is planned and judged by load.achieved like a built-in workload.
    expect(report.plan?.scenarios.map((plan) => plan.scenario)).toContain('requests.linkTags');
    const html = await readFile(join(outDir, 'report.html'), 'utf8');
    const markdown = await readFile(join(outDir, 'summary.md'), 'utf8');
    expect(html).toContain('<h3 id="request-kinds">Request kinds</h3>');
    expect(markdown).toContain('### Request kinds');
    // histograms.hlog logs each kind's latency per interval, tagged requests.<kind>.
    expect(await readFile(join(outDir, 'histograms.hlog'), 'utf8')).toMatch(/^Tag=requests\.getChatSession,/m);
    // Each kind has its latency-by-percentile chart, as photo upload has.
    expect(html).toContain('<figcaption>linkTags latency');
    for (const name of Object.keys(kinds)) {
      expect(html).toContain(`<td>${name}</td>`);
      expect(markdown).toContain(`| ${name} |`);
    }
  });

  it('a fault on one route fails exactly that kind', async () => {
    const profile = await apiMix({ target: { participants: 50, sessionsPerParticipant: 3, faults: ['error-rate=100 on PUT /tags/link/participant'] } });
    const { report, exitCode } = await runProfile(profile);
    const kinds = kindsOf(report);
    const link = kinds.linkTags!;
    expect(link.requests).toBeGreaterThan(0);
    expect(link.errors).toBe(link.requests);
    expect(link.errorsByKind).toEqual({ 'status:500': link.requests });
    for (const [name, kind] of Object.entries(kinds)) if (name !== 'linkTags') expect(kind.errors, name).toBe(0);
    const check = report.checks.find((c) => c.id === 'requests.expectations')!;
    expect(check.status).toBe('fail');
    expect(check.detail).toContain(`(by kind: linkTags: ${link.requests})`);
    const thresholds = Object.fromEntries(report.thresholds.map((t) => [t.expression, t.status]));
    expect(thresholds).toEqual({
      'requests.linkTags.errorRate < 0.001': 'fail',
      'requests.createTags.errorRate < 0.001': 'pass',
      'requests.getChatSession.errorRate < 0.001': 'pass',
    });
    // The 500s are problem+json: the fault fails the kind, not errors.problem_json.
    expect(statusOf(report)['errors.problem_json']).toBe('pass');
    expect(report.target.faults).toEqual(['error-rate=100 on PUT /tags/link/participant']);
    expect(exitCode).toBe(1);
  });

  it("a latency fault on one route breaks only that kind's latency thresholds, in a stage of a kind's own load too", async () => {
    const { report } = await runProfile({
      name: 'kinds-latency-fault',
      target: { participants: 10, sessionsPerParticipant: 2, faults: ['latency=400ms on GET /participants/{user_id}/chat_sessions/{id}'] },
      chatStreams: { enabled: false },
      generator: { maxEventLoopDelayP99: '250ms' },
      requests: {
        ratePerSec: 8,
        kinds: [
          { name: 'getSession', method: 'GET', path: '/participants/{userId}/chat_sessions/{sessionId}' },
          {
            name: 'searchSessions',
            method: 'POST',
            path: '/participants/{userId}/chat_sessions/search',
            body: { limit: 2 },
            load: {
              stages: [
                { duration: '1s', target: 8 },
                { duration: '2s', target: 'hold', name: 'burst' },
              ],
            },
          },
        ],
      },
      thresholds: [
        'requests.getSession.latencyMs.p99 < 300',
        'requests.searchSessions.latencyMs.p99 < 300',
        'requests.getSession.latencyMs.p50{stage:burst} < 300',
        'requests.searchSessions.latencyMs.p50{stage:burst} < 300',
      ],
    });
    const kinds = kindsOf(report);
    expect(kinds.getSession!.errors).toBe(0);
    expect(kinds.getSession!.latencyMs.p50).toBeGreaterThanOrEqual(400);
    expect(kinds.searchSessions!.requests).toBeGreaterThan(0);
    const results = Object.fromEntries(report.thresholds.map((t) => [t.expression, t]));
    expect(Object.fromEntries(Object.entries(results).map(([expression, t]) => [expression, t.status]))).toEqual({
      'requests.getSession.latencyMs.p99 < 300': 'fail',
      'requests.searchSessions.latencyMs.p99 < 300': 'pass',
      'requests.getSession.latencyMs.p50{stage:burst} < 300': 'fail',
      'requests.searchSessions.latencyMs.p50{stage:burst} < 300': 'pass',
    });
    // The stage of searchSessions' own load is a window of the run (1 s to 3 s), judged on its intervals alone.
    const burst = results['requests.searchSessions.latencyMs.p50{stage:burst} < 300']!;
    expect(burst.window).toMatchObject({ fromSec: 1, toSec: 3 });
    expect(burst.window?.evaluated).toBeGreaterThan(0);
    expect(report.stages?.map((stage) => stage.name)).toEqual(['burst']);
    expect(report.target.faults).toEqual(['latency=400ms on GET /participants/{user_id}/chat_sessions/{id}']);
  });

  it('each expectation that does not hold fails under its failure code', async () => {
    const session = '/participants/{userId}/chat_sessions/{sessionId}';
    const kind = (name: string, expect: Record<string, unknown>) => ({ name, method: 'GET', path: session, expect });
    const { report } = await runProfile({
      name: 'expectations',
      duration: '2s',
      chatStreams: { enabled: false },
      generator: { maxEventLoopDelayP99: '250ms' },
      requests: {
        ratePerSec: 20,
        arrivals: 'poisson',
        kinds: [
          kind('held', { status: [200], mediaType: 'application/json', headers: ['cache-control'], schema: { type: 'object', required: ['id'] } }),
          kind('wrongStatus', { status: [201] }),
          kind('wrongMedia', { mediaType: 'text/plain' }),
          kind('wrongSchema', { schema: { type: 'object', required: ['nope'] } }),
          kind('missingHeader', { headers: ['x-nope'] }),
        ],
      },
    });
    const kinds = kindsOf(report);
    // Poisson arrivals work for kinds as for any open-model workload: each kind's own seeded stream.
    expect(report.plan?.arrivals?.schedules).toContainEqual({ workload: 'requests.held', process: 'poisson' });
    const only = (name: string, code: string) => {
      const summary = kinds[name]!;
      expect(summary.requests, name).toBeGreaterThan(0);
      expect(summary.errorsByKind, name).toEqual({ [code]: summary.requests });
    };
    expect(kinds.held!.errors).toBe(0);
    expect(kinds.held!.requests).toBeGreaterThan(0);
    only('wrongStatus', 'status:200');
    only('wrongMedia', 'content-type');
    only('wrongSchema', 'body-schema');
    only('missingHeader', 'headers-missing');
    const check = report.checks.find((c) => c.id === 'requests.expectations')!;
    expect(check.status).toBe('fail');
    for (const name of ['wrongStatus', 'wrongMedia', 'wrongSchema', 'missingHeader']) expect(check.detail).toContain(`${name}: `);
    expect(check.detail).not.toContain('held: ');
  });

  it('api-mix passes through the CLI (bin/, built dist/)', async () => {
    const { path, dir } = await writeProfile(await apiMix());
    const result = await runBin(['run', '--profile', path, '--out', join(dir, 'cli-report'), '--quiet'], { deadlineMs: 40_000 });
    const report = await readRunReport(join(dir, 'cli-report'));
    expect(statusOf(report)['requests.expectations'], failures(report).join('\n')).toBe('pass');
    expect(Object.values(kindsOf(report)).every((kind) => kind.requests > 0 && kind.errors === 0)).toBe(true);
    expect(result.code, `${result.stderr}\n${failures(report).join('\n')}`).toBe(statusOf(report)['generator.healthy'] === 'pass' ? 0 : 1);
  }, 60_000);

  it('exports each kind to Prometheus under scenario="requests" and its kind label', async () => {
    const metricsPort = await freePort();
    const kind = (name: string, path: string) => ({ name, method: 'POST', path, body: { limit: 5 }, expect: { status: [200] } });
    const profile = {
      name: 'kinds-prometheus',
      duration: '3s',
      chatStreams: { enabled: false },
      generator: { maxEventLoopDelayP99: '250ms' },
      target: { participants: 20, faults: ['error-rate=100 on POST /participants/{user_id}/chat_unread_messages/search'] },
      requests: {
        ratePerSec: 20,
        kinds: [kind('sessions', '/participants/{userId}/chat_sessions/search'), kind('unread', '/participants/{userId}/chat_unread_messages/search')],
      },
    };
    // Scrape as Prometheus would while the run goes on; the endpoint closes with the run.
    let scraped = '';
    let running = true;
    const scraper = (async () => {
      while (running) {
        try {
          const body = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
          if (body.includes('coachbench_requests_total')) scraped = body;
        } catch {
          // Not listening yet, or closed already.
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    const { report } = await runProfile(profile, { metricsPort: String(metricsPort) });
    running = false;
    await scraper;
    const value = (series: string): number => Number(new RegExp(`^${series.replace(/[{}().]/g, '\\$&')} (\\S+)$`, 'm').exec(scraped)?.[1] ?? Number.NaN);
    expect(value('coachbench_requests_total{scenario="requests",kind="sessions"}')).toBeGreaterThan(0);
    expect(value('coachbench_requests_total{scenario="requests",kind="unread"}')).toBeGreaterThan(0);
    expect(value('coachbench_request_failures_total{scenario="requests",kind="unread",code="status:500"}')).toBeGreaterThan(0);
    expect(scraped).not.toContain('kind="sessions",code=');
    expect(value('coachbench_request_duration_seconds_count{scenario="requests",kind="sessions"}')).toBeGreaterThan(0);
    expect(value('coachbench_check_failures_total{check="requests.expectations"}')).toBeGreaterThan(0);
    expect(value('coachbench_requests_in_flight{scenario="requests",kind="sessions"}')).toBeGreaterThanOrEqual(0);
    // What was scraped last is at most what the report holds.
    expect(value('coachbench_requests_total{scenario="requests",kind="sessions"}')).toBeLessThanOrEqual(report.scenarios.requests!.sessions!.requests);
  });

  it('shows each kind in the per-stage tables beside the named stages of the streams', async () => {
    const { report } = await runProfile({
      name: 'kinds-stages',
      target: { keepAlive: '500ms', participants: 10, sessionsPerParticipant: 2 },
      keepAliveTolerance: '40%',
      generator: { maxEventLoopDelayP99: '250ms' },
      chatStreams: {
        messageRatePerSec: 0,
        churnRatePerSec: 0,
        stages: [
          { duration: '1s', target: 4, name: 'up' },
          { duration: '2s', target: 'hold', name: 'steady' },
        ],
      },
      requests: { ratePerSec: 10, kinds: [{ name: 'sessions', method: 'POST', path: '/participants/{userId}/chat_sessions/search', body: { limit: 2 } }] },
    });
    const steady = report.stages?.find((stage) => stage.name === 'steady');
    const row = steady?.requests.find((entry) => entry.scenario === 'requests.sessions');
    expect(row?.requests, JSON.stringify(report.stages)).toBeGreaterThan(0);
    expect(row?.errorRate).toBe(0);
  });
});
