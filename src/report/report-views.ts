/**
 * The one table of a report folder's files: report.json, the data, and the views rendered
 * from it. Every view is a pure function of the Report, so `coachbench report` can
 * regenerate any of them from report.json alone. A new view is one row here.
 */
import { join } from 'node:path';
import type { Report } from '../contract/report.js';
import { renderHtml } from './render-html.js';
import { renderJunit } from './render-junit.js';
import { renderMarkdown } from './render-markdown.js';

/** The file holding the run's data, from which every view is derived. */
export const REPORT_JSON_FILE = 'report.json';

export interface ReportView {
  /** File name inside a report folder. */
  file: string;
  render(report: Report): string;
}

export const REPORT_VIEWS = {
  html: { file: 'report.html', render: renderHtml },
  junit: { file: 'junit.xml', render: renderJunit },
  markdown: { file: 'summary.md', render: renderMarkdown },
} as const satisfies Record<string, ReportView>;

export type ViewKind = keyof typeof REPORT_VIEWS;

/** In the order they are written. */
export const VIEW_KINDS = Object.keys(REPORT_VIEWS) as ViewKind[];

/** Where each view goes inside report folder `dir`. */
export function viewPathsIn(dir: string): Record<ViewKind, string> {
  return Object.fromEntries(VIEW_KINDS.map((kind) => [kind, join(dir, REPORT_VIEWS[kind].file)])) as Record<ViewKind, string>;
}
