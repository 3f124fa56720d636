/**
 * Writes a trend folder: trend.json (the data), trend.html (people), trend.md (CI job
 * summaries). Each file is written atomically, like a report folder's.
 */
import { access } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { printableJson } from '../../util/printable.js';
import { writeFileAtomic } from '../write-report.js';
import { renderTrendHtml } from './render-trend-html.js';
import { renderTrendMarkdown } from './render-trend-markdown.js';
import type { Trend } from './trend-model.js';

export const TREND_FILES = { json: 'trend.json', html: 'trend.html', markdown: 'trend.md' } as const;

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/** A relative link from `fromDir` to `target`, each path segment URL-encoded. */
export function relativeHref(fromDir: string, target: string): string {
  return relative(fromDir, target).split(sep).map(encodeURIComponent).join('/');
}

/** Each run's report.html (else its report.json), as a link relative to `outDir`. */
async function runLinks(trend: Trend, outDir: string): Promise<Map<number, string>> {
  const links = new Map<number, string>();
  for (const run of trend.runs) {
    const html = join(dirname(run.report), 'report.html');
    links.set(run.index, relativeHref(outDir, (await exists(html)) ? html : run.report));
  }
  return links;
}

/** Writes the three files into `outDir` (which must exist); returns their paths. */
export async function writeTrendFiles(outDir: string, trend: Trend): Promise<string[]> {
  const links = await runLinks(trend, outDir);
  const files: Array<[string, string]> = [
    [join(outDir, TREND_FILES.json), `${printableJson(trend)}\n`],
    [join(outDir, TREND_FILES.html), renderTrendHtml(trend, links)],
    [join(outDir, TREND_FILES.markdown), renderTrendMarkdown(trend)],
  ];
  for (const [path, data] of files) await writeFileAtomic(path, data);
  return files.map(([path]) => path);
}
