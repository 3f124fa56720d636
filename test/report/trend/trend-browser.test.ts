/**
 * trend.html in headless Chromium, like the report (test/report/browser.test.ts): one chart
 * per followed metric, every run a linked point, change points drawn, no console errors,
 * no request beyond file://, no horizontal scroll at 1280 px, hostile labels inert.
 */
import { mkdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildTrend } from '../../../src/report/trend/build-trend.js';
import { writeTrendFiles } from '../../../src/report/trend/write-trend.js';
import { HAS_BROWSER, SKIP_NOTE, useBrowser, watchedPage } from '../../support/chromium.js';
import { entries, night, nights } from '../../support/report-history.js';
import { SETTINGS } from '../../support/synthetic-history.js';

const HOSTILE = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>${'unbroken'.repeat(60)}`;

interface ChartFacts {
  kind: string;
  width: number;
  drawn: boolean;
  links: number;
  points: number;
  changes: number;
}

const browser = useBrowser('trend-browser');

describe('trend.html in a real browser', () => {
  it.skipIf(!HAS_BROWSER)(
    `renders one linked chart per metric at 1280 px with no errors${SKIP_NOTE}`,
    async () => {
      const reports = [...nights(19, 15), night(20, { shiftMs: 20, labels: { release: HOSTILE } })];
      const trend = buildTrend(entries(reports), [], { settings: SETTINGS, generatedAt: new Date('2026-12-01T00:00:00Z') });
      const out = join(browser.dir, 'trend');
      await mkdir(out);
      await writeTrendFiles(out, trend);
      const { page, findings } = await watchedPage(browser.context);
      await page.goto(pathToFileURL(join(out, 'trend.html')).href, { waitUntil: 'load' });
      const charts = await page.evaluate(() => {
        interface El {
          dataset: Record<string, string | undefined>;
          getBBox(): { width: number };
          getBoundingClientRect(): { width: number };
          querySelector(selector: string): El | null;
          querySelectorAll(selector: string): ArrayLike<El>;
        }
        const { document } = globalThis as unknown as { document: { querySelectorAll(selector: string): ArrayLike<El> } };
        return Array.from(document.querySelectorAll('svg.chart')).map((svg) => ({
          kind: svg.dataset.chart ?? '',
          width: svg.getBoundingClientRect().width,
          drawn: (svg.querySelector('path.series')?.getBBox().width ?? 0) > 100,
          links: svg.querySelectorAll('a circle.run').length,
          points: svg.querySelectorAll('circle.run').length,
          changes: svg.querySelectorAll('line.change').length,
        }));
      });
      expect(charts.map((chart: ChartFacts) => chart.kind)).toEqual(trend.series.map((series) => `trend-${series.metric}`));
      for (const chart of charts as ChartFacts[]) {
        expect(chart.width, chart.kind).toBeGreaterThan(400);
        expect(chart.drawn, chart.kind).toBe(true);
        expect(chart.links, chart.kind).toBe(20);
        expect(chart.points, chart.kind).toBe(20);
      }
      const tagChart = (charts as ChartFacts[]).find((chart) => chart.kind === 'trend-tagLink.latencyMs.p99')!;
      expect(tagChart.changes).toBe(1);
      expect(await page.locator('[data-verdict="regression"] .word').textContent()).toBe('REGRESSION');
      expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      // Links lead to the run's report file.
      const href = await page.locator('svg.chart a').first().getAttribute('href');
      expect(href).toMatch(/\/history\/nightly-001\/report\.json$/);
      expect(findings.errors).toEqual([]);
      expect(findings.requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
      const { scrollWidth, clientWidth } = await page.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
        return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
      });
      expect(clientWidth).toBe(1280);
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      const artifacts = resolve('reports/test-artifacts');
      await mkdir(artifacts, { recursive: true });
      await page.screenshot({ path: join(artifacts, 'trend-1280.png'), fullPage: true });
      expect((await stat(join(artifacts, 'trend-1280.png'))).size).toBeGreaterThan(20_000);
      await page.close();
    },
    60_000,
  );
});
