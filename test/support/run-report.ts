/**
 * A run's report.json read back, as the Report the run wrote (src/report/write-report.ts; the
 * report folder is docs/design.md §5).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '../../src/contract/report.js';

/** The report.json of the report folder `dir`. */
export async function readRunReport(dir: string): Promise<Report> {
  return JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report;
}

/** The report.json of `dir`, or null when there is none to read (the run wrote no report); one that is there but not JSON still throws. */
export async function readRunReportIfWritten(dir: string): Promise<Report | null> {
  const text = await readFile(join(dir, 'report.json'), 'utf8').catch(() => null);
  return text === null ? null : (JSON.parse(text) as Report);
}
