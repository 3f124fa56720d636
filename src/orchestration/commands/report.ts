/**
 * The work of `coachbench report` (src/cli/report.ts declares its flags): re-renders the
 * views of a report from its JSON alone. With no output flag the three views are written next
 * to the report; with flags, only the named ones. Exit 0 once written (the run's verdict is
 * the run's exit code, not this).
 */
import { dirname } from 'node:path';
import { type ViewKind, viewPathsIn } from '../../report/report-views.js';
import { checkTraceUrlTemplate } from '../../report/trace-url.js';
import { ReportWriteError, writeViews } from '../../report/write-report.js';
import { ExitCode } from '../../util/errors.js';
import { escapeInvisible, terminalText } from '../../util/printable.js';
import { cannotWrite } from '../../util/system-error.js';
import { readReportFile } from './read-report.js';

export interface ReportFlags {
  report: string;
  html?: string;
  junit?: string;
  markdown?: string;
  /** `--trace-url TEMPLATE`: links for the slowest trace ids, replacing the report's own. */
  traceUrl?: string;
}

const VIEW_FLAGS = ['html', 'junit', 'markdown'] as const;

/** The files to write: the flags given, or all three beside the report. */
export function reportTargets(flags: ReportFlags): Partial<Record<ViewKind, string>> {
  const named: Partial<Record<ViewKind, string>> = {};
  if (flags.html) named.html = flags.html;
  if (flags.junit) named.junit = flags.junit;
  if (flags.markdown) named.markdown = flags.markdown;
  if (Object.keys(named).length > 0) return named;
  return viewPathsIn(dirname(flags.report));
}

export async function runReport(flags: ReportFlags): Promise<number> {
  const template = flags.traceUrl === undefined ? undefined : checkTraceUrlTemplate(flags.traceUrl);
  const read = await readReportFile(flags.report);
  // The views link trace ids with the template given now; report.json itself is left as it was.
  const report = template === undefined ? read : { ...read, traceUrl: template };
  const written = await writeViews(report, reportTargets(flags)).catch((error: unknown) => {
    if (!(error instanceof ReportWriteError)) throw error;
    // A view the user named by its flag is named so; the views written beside the report have none.
    const flag = VIEW_FLAGS.find((name) => flags[name] === error.path);
    throw cannotWrite(flag === undefined ? null : `--${flag}`, error.path, error.cause);
  });
  for (const path of written) process.stdout.write(terminalText(`wrote ${escapeInvisible(path)}\n`));
  return ExitCode.ok;
}
