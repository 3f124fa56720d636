/**
 * Opens report.html (and a compare page) in Debian's headless Chromium through
 * playwright-core: charts rendered with data, no console errors, no network, no
 * horizontal scroll at 1280 px; saves screenshots under reports/test-artifacts/.
 * Skipped, saying why, only when no Chromium is installed.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareReports } from '../../src/report/compare/compare.js';
import { renderCompareHtml } from '../../src/report/compare/render-compare-html.js';
import { writeReportFiles } from '../../src/report/write-report.js';
import { HAS_BROWSER, type PageFindings, SKIP_NOTE, useBrowser, watchedPage } from '../support/chromium.js';
import { makeCapacity, makeReport } from '../support/make-report.js';

const ARTIFACTS = resolve('reports/test-artifacts');
/** Markup that would run if unescaped, and a 640-character word that would force side scrolling if unwrapped. */
const HOSTILE = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>${'unbroken'.repeat(80)}`;

interface ChartInfo {
  kind: string;
  width: number;
  paths: number;
  drawnPaths: number;
  bars: number;
}

const browser = useBrowser('browser');

/** Opens a file:// page, recording console errors, page errors and every request made. */
async function open(file: string): Promise<{ page: Page; findings: PageFindings }> {
  const watched = await watchedPage(browser.context);
  await watched.page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return watched;
}

/*
 * The project compiles without the DOM library (it is a Node tool), so the few DOM members
 * the in-page functions use are declared here; the functions themselves run in Chromium.
 */
interface DomElement {
  dataset: Record<string, string | undefined>;
  getAttribute(name: string): string | null;
  getBBox(): { width: number; height: number };
  getBoundingClientRect(): { width: number };
  querySelectorAll(selector: string): Iterable<DomElement>;
}
interface DomGlobals {
  document: { documentElement: { scrollWidth: number; clientWidth: number }; querySelectorAll(selector: string): Iterable<DomElement> };
  __pwned?: number;
}

/** What the browser actually laid out for each chart (getBBox: drawn, not just present). */
function chartInfo(page: Page): Promise<ChartInfo[]> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as DomGlobals;
    return [...document.querySelectorAll('svg.chart')].map((svg) => {
      const paths = [...svg.querySelectorAll('path.series')];
      const drawn = paths.filter((path) => (path.getAttribute('d') ?? '').length > 20 && path.getBBox().width > 0);
      return {
        kind: svg.dataset.chart ?? '',
        width: svg.getBoundingClientRect().width,
        paths: paths.length,
        drawnPaths: drawn.length,
        bars: [...svg.querySelectorAll('rect.bar')].filter((bar) => bar.getBBox().height > 0).length,
      };
    });
  });
}

async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => {
    const { documentElement } = (globalThis as unknown as DomGlobals).document;
    return { scrollWidth: documentElement.scrollWidth, clientWidth: documentElement.clientWidth };
  });
  expect(clientWidth).toBe(1280);
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

async function screenshot(page: Page, name: string): Promise<void> {
  const path = join(ARTIFACTS, name);
  await page.screenshot({ path, fullPage: true });
  expect((await stat(path)).size).toBeGreaterThan(20_000);
}

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
});

describe('report pages in a real browser', () => {
  it.skipIf(!HAS_BROWSER)(`report.html renders its charts at 1280 px with no errors${SKIP_NOTE}`, async () => {
    const report = { ...makeReport({ lateKeepAlives: 3, failChecks: ['stream.keepalive.cadence'], hostile: HOSTILE }), capacity: makeCapacity() };
    const dir = join(browser.dir, 'run');
    await writeReportFiles(dir, report);
    const { page, findings } = await open(join(dir, 'report.html'));
    const charts = await chartInfo(page);
    const kinds = charts.map((chart) => chart.kind);
    expect(kinds.filter((kind) => kind === 'percentile')).toHaveLength(6);
    for (const kind of [
      'keepalive-gaps',
      'ts-streams',
      'ts-events',
      'ts-requests',
      'ts-errors',
      'ts-event-latency',
      'ts-request-latency',
      'ts-event-loop',
      'ts-rss',
      'capacity',
    ])
      expect(kinds).toContain(kind);
    for (const chart of charts) {
      expect(chart.width, chart.kind).toBeGreaterThan(400);
      if (chart.kind === 'keepalive-gaps') expect(chart.bars).toBeGreaterThan(1);
      else expect(chart.drawnPaths, chart.kind).toBe(chart.paths);
    }
    // 8 percentile curves, 14 time-series lines (p50, p90, p99 of delivery and of requests), 2 capacity curves (one per SLO).
    expect(charts.reduce((sum, chart) => sum + chart.drawnPaths, 0)).toBe(24);
    expect(await page.evaluate(() => (globalThis as unknown as DomGlobals).__pwned)).toBeUndefined();
    expect(await page.locator('[data-verdict="fail"] .word').textContent()).toBe('FAIL');
    expect(findings.errors).toEqual([]);
    expect(findings.requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
    await expectNoHorizontalScroll(page);
    await screenshot(page, 'report-1280.png');
    await page.close();
  });

  it.skipIf(!HAS_BROWSER)(`the compare page renders its overlays at 1280 px with no errors${SKIP_NOTE}`, async () => {
    const baseline = makeReport({ seed: 1 });
    const candidate = makeReport({ seed: 2, latencyShiftMs: 20 });
    const file = join(browser.dir, 'compare.html');
    await writeFile(file, renderCompareHtml(compareReports(baseline, candidate, { maxRegression: 0.1, perMetric: {} }), baseline, candidate));
    const { page, findings } = await open(file);
    const charts = await chartInfo(page);
    expect(charts.length).toBeGreaterThanOrEqual(8);
    for (const chart of charts) expect(chart.drawnPaths, chart.kind).toBe(2);
    expect(findings.errors).toEqual([]);
    expect(findings.requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
    await expectNoHorizontalScroll(page);
    await screenshot(page, 'compare-1280.png');
    await page.close();
  });
});
