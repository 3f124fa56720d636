/**
 * `coachbench report REPORT.json`: re-renders the views of a report from its JSON alone.
 * With no output flag the three views are written next to the report; with flags, only
 * the named ones. Exit 0 once written (the run's verdict is the run's exit code, not this).
 */
import { dirname } from 'node:path';
import { type ViewKind, viewPathsIn } from '../report/report-views.js';
import { checkTraceUrlTemplate } from '../report/trace-url.js';
import { writeViews } from '../report/write-report.js';
import { ExitCode } from '../util/errors.js';
import { escapeInvisible, terminalText } from '../util/printable.js';
import { defineCommand } from './cli-command.js';
import { textOption } from './flag-values.js';
import { readReportFile } from './read-report.js';

export interface ReportFlags {
  report: string;
  html?: string;
  junit?: string;
  markdown?: string;
  /** `--trace-url TEMPLATE`: links for the slowest trace ids, replacing the report's own. */
  traceUrl?: string;
}

/** The files to write: the flags given, or all three beside the report. */
export function reportTargets(flags: ReportFlags): Partial<Record<ViewKind, string>> {
  const named: Partial<Record<ViewKind, string>> = {};
  if (flags.html) named.html = flags.html;
  if (flags.junit) named.junit = flags.junit;
  if (flags.markdown) named.markdown = flags.markdown;
  if (Object.keys(named).length > 0) return named;
  return viewPathsIn(dirname(flags.report));
}

export const reportCommand = defineCommand<ReportFlags>({
  command: 'report <report>',
  describe: 'render report.html, junit.xml and summary.md from a report.json',
  builder: (yargs) =>
    yargs
      .positional('report', { type: 'string', describe: 'path to a report.json', demandOption: true })
      .option('html', textOption('--html', { describe: 'write the HTML report here' }))
      .option('junit', textOption('--junit', { describe: 'write the JUnit XML here' }))
      .option('markdown', textOption('--markdown', { describe: 'write the Markdown summary here' }))
      .option(
        'trace-url',
        textOption('--trace-url', { describe: 'link the slowest trace ids in report.html to this URL template, e.g. https://tempo.example/trace/{traceId}' }),
      )
      .example('$0 report reports/smoke-20250101T120000Z/report.json', 'rewrite report.html, junit.xml and summary.md beside it')
      .example('$0 report shard-0/report.json --html /tmp/shard-0.html', 'only the HTML, somewhere else') as never,
  run: async (flags) => {
    const template = flags.traceUrl === undefined ? undefined : checkTraceUrlTemplate(flags.traceUrl);
    const read = await readReportFile(flags.report);
    // The views link trace ids with the template given now; report.json itself is left as it was.
    const report = template === undefined ? read : { ...read, traceUrl: template };
    const written = await writeViews(report, reportTargets(flags));
    for (const path of written) process.stdout.write(terminalText(`wrote ${escapeInvisible(path)}\n`));
    return ExitCode.ok;
  },
});
