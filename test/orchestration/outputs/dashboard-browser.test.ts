/**
 * `run --dashboard PORT` in Debian's headless Chromium during a real run against the
 * embedded target: the page connects to its event stream, shows numbers that grow, draws its
 * charts, lists every check and threshold, loads nothing from elsewhere and logs no error.
 * A screenshot goes to reports/test-artifacts/dashboard-1280.png.
 */
import { mkdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHECK_IDS } from '../../../src/contract/check-ids.js';
import { HAS_BROWSER, SKIP_NOTE, useBrowser, watchedPage } from '../../support/chromium.js';
import { freePort } from '../../support/free-port.js';
import { quickProfile } from '../../support/profiles.js';
import { runProfile } from '../../support/run-helpers.js';

const ARTIFACTS = resolve('reports/test-artifacts');

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** A shown count such as "1,234" as a number. */
/** Waits (10 s at most) until the run's dashboard answers at `origin`. */
async function dashboardAnswers(origin: string): Promise<void> {
  for (let i = 0; ; i++) {
    const reachable = await fetch(`${origin}/dashboard.js`).then(
      (r) => r.ok,
      () => false,
    );
    if (reachable) return;
    if (i > 100) throw new Error('the dashboard never answered');
    await sleep(100);
  }
}

const shownNumber = async (page: Page, selector: string): Promise<number> => Number(((await page.locator(selector).textContent()) ?? '').replace(/,/g, ''));

const browser = useBrowser('dashboard');

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
});

describe('the live dashboard in a real browser', () => {
  it.skipIf(!HAS_BROWSER)(
    `shows numbers that grow during a run${SKIP_NOTE}`,
    async () => {
      const port = await freePort();
      const threshold = 'chatStreams.eventLatencyMs.p99 < 250';
      const run = runProfile(quickProfile({ duration: '12s', thresholds: [threshold] }), { dashboard: String(port) });
      const { page, findings } = await watchedPage(browser.context);
      const origin = `http://127.0.0.1:${port}`;
      await dashboardAnswers(origin);
      await page.goto(`${origin}/`);
      await page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }).document.getElementById('total-events')
            ?.textContent !== '-',
      );
      await sleep(1_500);
      const first = { events: await shownNumber(page, '#total-events'), elapsed: await page.locator('#tile-elapsed').textContent() };
      await sleep(3_000);
      const second = { events: await shownNumber(page, '#total-events'), elapsed: await page.locator('#tile-elapsed').textContent() };
      expect(first.events).toBeGreaterThan(0);
      expect(second.events).toBeGreaterThan(first.events);
      expect(second.elapsed).not.toBe(first.elapsed);
      expect(await page.locator('#connection').textContent()).toBe('live, updated every second');
      // Open streams (chat and main) beside what the plan holds now.
      expect(await page.locator('#tile-streams').textContent()).toMatch(/^\d+ \(plan 48\)$/);
      expect(await page.locator('#tile-gap-p99').textContent()).toMatch(/^\d\.\d+ s$/);

      // Every check and the threshold, each with its current state.
      const checks = await page.locator('#checks-body tr').allTextContents();
      expect(checks).toHaveLength(CHECK_IDS.length);
      for (const [i, id] of CHECK_IDS.entries()) expect(checks[i]).toMatch(new RegExp(`^${id.replace(/\./g, '\\.')}(PASS|FAIL|SKIP)`));
      expect(await page.locator('#thresholds-body tr').allTextContents()).toEqual([
        expect.stringMatching(/^chatStreams\.eventLatencyMs\.p99 < 250(PASS|FAIL)/),
      ]);

      // The five charts are drawn (the report's, sent by the server): open streams and the plan, rates, request, delivery and KEEP_ALIVE percentiles.
      const drawn = await page.evaluate(() => {
        const { document } = globalThis as unknown as {
          document: { querySelectorAll(s: string): Iterable<{ id: string; querySelectorAll(s: string): { length: number } }> };
        };
        return [...document.querySelectorAll('.live-chart')].map((slot) => [slot.id, slot.querySelectorAll('svg.chart path.series').length] as const);
      });
      expect(Object.fromEntries(drawn)).toMatchObject({ 'chart-streams': 3, 'chart-rates': 2, 'chart-delivery-latency': 3, 'chart-keepalive': 3 });
      expect(await page.locator('#chart-streams .chart-legend').textContent()).toContain('planned (participants)');
      await page.screenshot({ path: join(ARTIFACTS, 'dashboard-1280.png'), fullPage: true });
      expect((await stat(join(ARTIFACTS, 'dashboard-1280.png'))).size).toBeGreaterThan(20_000);

      const { report } = await run;
      // The page is told the run ended, and never loaded anything but its own origin.
      await page.waitForFunction(() =>
        (globalThis as unknown as { document: { getElementById(id: string): { textContent: string } } }).document
          .getElementById('connection')
          .textContent.startsWith('the run has ended'),
      );
      expect(report.checks).toHaveLength(CHECK_IDS.length);
      expect(findings.requests.filter((url) => !url.startsWith(origin))).toEqual([]);
      expect(findings.errors).toEqual([]);
      await page.close();
    },
    60_000,
  );

  it.skipIf(!HAS_BROWSER)(
    `shows each request kind's rate, errors and latency, with the report's table and figures${SKIP_NOTE}`,
    async () => {
      const port = await freePort();
      const run = runProfile(
        {
          name: 'dashboard-kinds',
          duration: '8s',
          target: { participants: 10, sessionsPerParticipant: 2, faults: ['error-rate=100 on POST /participants/{user_id}/chat_sessions/search'] },
          chatStreams: { enabled: false },
          generator: { maxEventLoopDelayP99: '250ms' },
          requests: {
            ratePerSec: 10,
            kinds: [
              { name: 'getSession', method: 'GET', path: '/participants/{userId}/chat_sessions/{sessionId}' },
              { name: 'searchSessions', method: 'POST', path: '/participants/{userId}/chat_sessions/search', body: { limit: 2 } },
            ],
          },
          thresholds: ['requests.getSession.latencyMs.p99 < 2000'],
        },
        { dashboard: String(port) },
      );
      const { page, findings } = await watchedPage(browser.context);
      const origin = `http://127.0.0.1:${port}`;
      await dashboardAnswers(origin);
      await page.goto(`${origin}/`);
      // Two intervals in, each kind has a row and a line.
      await page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document.querySelectorAll('#request-kinds tbody tr')
            .length === 2,
      );
      await sleep(2_500);
      const rows = await page.locator('#request-kinds tbody tr').allTextContents();
      expect(rows[0]).toMatch(/^getSessionGET \/participants\/\{userId\}\/chat_sessions\/\{sessionId\}50% of the mix, 5\.00?\/s\d+0200\s\d+/);
      // The route's fault fails every searchSessions request, under its status code.
      expect(rows[1]).toMatch(/^searchSessionsPOST .*\d+ \(100\s?%\): status:500\s\d+/);
      const drawn = await page.evaluate(() => {
        const { document } = globalThis as unknown as {
          document: { querySelectorAll(s: string): Iterable<{ getAttribute(name: string): string | null; querySelectorAll(s: string): { length: number } }> };
        };
        return [...document.querySelectorAll('#request-kinds svg.chart')].map(
          (svg) => [svg.getAttribute('data-chart'), svg.querySelectorAll('path.series').length] as const,
        );
      });
      expect(Object.fromEntries(drawn.filter(([kind]) => kind?.startsWith('live-kind-')))).toEqual({
        'live-kind-rates': 2,
        'live-kind-errors': 2,
        'live-kind-latency': 2,
      });
      const captions = await page.locator('#request-kinds figcaption').allTextContents();
      expect(captions.filter((caption) => / latency/.test(caption) && !caption.startsWith('Request kinds'))).toEqual([
        expect.stringMatching(/^getSession latency/),
        expect.stringMatching(/^searchSessions latency/),
      ]);
      await page.screenshot({ path: join(ARTIFACTS, 'dashboard-kinds-1280.png'), fullPage: true });
      await run;
      expect(findings.requests.filter((url) => !url.startsWith(origin))).toEqual([]);
      expect(findings.errors).toEqual([]);
      await page.close();
    },
    60_000,
  );
});
