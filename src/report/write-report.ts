/**
 * Writes a run's report folder (docs/design.md §5): report.json plus the rendered views.
 * Every view is a pure function of the Report, so `coachbench report` can regenerate them.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '../contract/report.js';
import { renderHtml } from './render-html.js';
import { renderJunit } from './render-junit.js';
import { renderMarkdown } from './render-markdown.js';

/** File names inside a report folder. */
export const REPORT_FILE_NAMES = { json: 'report.json', html: 'report.html', junit: 'junit.xml', markdown: 'summary.md' } as const;

export type ViewKind = 'html' | 'junit' | 'markdown';

/** Renders one view of a report. */
export function renderView(kind: ViewKind, report: Report): string {
  switch (kind) {
    case 'html':
      return renderHtml(report);
    case 'junit':
      return renderJunit(report);
    case 'markdown':
      return renderMarkdown(report);
  }
}

/** Renders and writes the views to the given paths; returns the paths written. */
export async function writeViews(report: Report, targets: Partial<Record<ViewKind, string>>): Promise<string[]> {
  const written: string[] = [];
  for (const kind of ['html', 'junit', 'markdown'] as const) {
    const path = targets[kind];
    if (path === undefined) continue;
    await writeFile(path, renderView(kind, report));
    written.push(path);
  }
  return written;
}

/**
 * Writes every file of the report folder; returns the paths written. report.json goes
 * first so that, whatever happens while rendering, the data of the run is on disk.
 */
export async function writeReportFiles(dir: string, report: Report): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const jsonPath = join(dir, REPORT_FILE_NAMES.json);
  await writeFile(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  const views = await writeViews(report, {
    html: join(dir, REPORT_FILE_NAMES.html),
    junit: join(dir, REPORT_FILE_NAMES.junit),
    markdown: join(dir, REPORT_FILE_NAMES.markdown),
  });
  return [jsonPath, ...views];
}
