/**
 * Writes a run's report folder (docs/design.md §5): report.json plus the rendered views.
 * Every view is a pure function of the Report, so `coachbench report` can regenerate them.
 * Every file is written atomically: a file of the folder is either whole or absent, never
 * cut off by a full disk halfway through.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Report } from '../contract/report.js';
import { ExitCode } from '../util/errors.js';
import { makeDirs } from '../util/make-dirs.js';
import { printableJson } from '../util/printable.js';
import { describeSystemError, systemErrorCode } from '../util/system-error.js';
import { REPORT_JSON_FILE, REPORT_VIEWS, VIEW_KINDS, type ViewKind, viewPathsIn } from './report-views.js';

/**
 * A file of a report that could not be written: the file, and the system's error code
 * (ENOSPC, EPERM, ...). `run` falls back to another folder; `report` and `merge` write where
 * they were told, so for them it is a path that cannot take the file: one line, exit 2,
 * not an internal error.
 */
export class ReportWriteError extends Error {
  readonly exitCode = ExitCode.usage;
  constructor(
    readonly path: string,
    readonly code: string,
    cause: unknown,
  ) {
    super(`${path}: ${describeSystemError(cause)}`, { cause });
    this.name = 'ReportWriteError';
  }
}

/** A system error (one with an errno code) as a ReportWriteError naming `path`; anything else as it is. */
function asWriteError(path: string, error: unknown): unknown {
  const code = systemErrorCode(error);
  return code === undefined ? error : new ReportWriteError(path, code, error);
}

/**
 * Writes `data` to a temp file beside `path`, then renames it over `path` (a rename within
 * one folder is atomic). On failure the temp file is removed and `path` is left as it was.
 */
export async function writeFileAtomic(path: string, data: string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, data, { flag: 'wx' });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** Writes one file of a report atomically; throws ReportWriteError for a system error. */
async function writeReportFile(path: string, data: string): Promise<void> {
  try {
    await writeFileAtomic(path, data);
  } catch (error) {
    throw asWriteError(path, error);
  }
}

/** Renders and writes the views to the given paths; returns the paths written. Throws ReportWriteError. */
export async function writeViews(report: Report, targets: Partial<Record<ViewKind, string>>): Promise<string[]> {
  const written: string[] = [];
  for (const kind of VIEW_KINDS) {
    const path = targets[kind];
    if (path === undefined) continue;
    await writeReportFile(path, REPORT_VIEWS[kind].render(report));
    written.push(path);
  }
  return written;
}

/**
 * Writes every file of the report folder; returns the paths written. report.json goes
 * first so that, whatever happens while rendering, the data of the run is on disk.
 * Throws ReportWriteError at the first file that cannot be written; the files before it are whole.
 */
export async function writeReportFiles(dir: string, report: Report): Promise<string[]> {
  await makeDirs(dir).catch((error: unknown) => {
    throw asWriteError(dir, error);
  });
  const jsonPath = join(dir, REPORT_JSON_FILE);
  await writeReportFile(jsonPath, `${printableJson(report)}\n`);
  const views = await writeViews(report, viewPathsIn(dir));
  return [jsonPath, ...views];
}
