/**
 * Saves a run's report so that the run is never lost (docs/design.md §5): the report folder,
 * or, when that cannot be written (a full disk, a folder gone read-only), the fallback folder
 * os.tmpdir()/coachbench-<runId>/. When the report folder is lost, the verdict and every check
 * also go to stdout, and one warning line on stderr says what failed and where the report is.
 * The report is built here from what it is made of, and built again with the warning when the
 * folder is lost: buildReport stays its only author.
 */
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Report } from '../contract/report.js';
import type { MetricSet } from '../metrics/metric-set.js';
import { buildReport, type ReportContext } from '../report/build-report.js';
import { renderChecksText } from '../report/render-checks-text.js';
import { ReportWriteError, writeReportFiles } from '../report/write-report.js';
import { escapeInvisible, terminalText } from '../util/printable.js';
import { describeSystemError } from '../util/system-error.js';

/** What buildReport makes a report of. */
export interface ReportMaterial {
  total: MetricSet;
  inputs: ReportContext;
}

export interface SavedReport {
  /** The folder holding report.json: the report folder, the fallback, or null when neither could be written. */
  dir: string | null;
  /** The report as saved; when the report folder was lost it carries a warning saying so. */
  report: Report;
  /** What `report` was built of, that warning included: a report written again is built again from it. */
  material: ReportMaterial;
}

export interface SaveStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** The fallback folder of a run: one per run id, in the system's temp folder. */
export function fallbackDir(runId: string): string {
  return join(tmpdir(), `coachbench-${runId.replace(/[^\w.-]/g, '_')}`);
}

/** `report.html: ENOSPC (no space left on device)`. */
function whatFailed(error: ReportWriteError): string {
  return `${basename(error.path)}: ${describeSystemError(error.cause)}`;
}

/** Only a system error while writing falls back; a rendering bug is a bug and is thrown. */
async function tryWrite(dir: string, report: Report): Promise<ReportWriteError | null> {
  try {
    await writeReportFiles(dir, report);
    return null;
  } catch (error) {
    if (error instanceof ReportWriteError) return error;
    throw error;
  }
}

/**
 * Writes the report folder, falling back as the module comment says; never throws for I/O.
 * `fallbackUnder` is a path inside the fallback folder (a capacity step's `steps/NN-LOAD`), so
 * that a step's report and the search's final report, both falling back under one run id,
 * keep the layout of the report folder instead of overwriting each other.
 */
export async function saveReport(outDir: string, material: ReportMaterial, streams: SaveStreams, fallbackUnder = ''): Promise<SavedReport> {
  const report = buildReport(material.total, material.inputs);
  const failure = await tryWrite(outDir, report);
  if (failure === null) return { dir: outDir, report, material };
  const fallback = join(fallbackDir(report.runId), fallbackUnder);
  const lost = `could not write the report folder ${outDir} (${whatFailed(failure)})`;
  const inputs = { ...material.inputs, warnings: [...material.inputs.warnings, `${lost}; this copy was written to ${fallback}`] };
  const lostMaterial = { total: material.total, inputs };
  const saved = buildReport(lostMaterial.total, inputs);
  streams.stdout.write(terminalText(renderChecksText(saved)));
  const second = await tryWrite(fallback, saved);
  if (second === null) {
    streams.stderr.write(terminalText(`coachbench: warning: ${escapeInvisible(`${lost}; the report is in ${fallback}`)}\n`));
    return { dir: fallback, report: saved, material: lostMaterial };
  }
  streams.stderr.write(
    terminalText(
      `coachbench: warning: ${escapeInvisible(`${lost}, nor the fallback folder ${fallback} (${whatFailed(second)})`)}; ` +
        'no report was written: the verdict and checks printed on stdout are all that is kept of this run\n',
    ),
  );
  return { dir: null, report: saved, material: lostMaterial };
}
