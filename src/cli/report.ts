/** `coachbench report REPORT.json`: re-renders report.html, junit.xml and summary.md from a report.json. */
import { type ReportFlags, runReport } from '../orchestration/commands/report.js';
import { defineCommand } from './cli-command.js';
import { textOption } from './flag-values.js';

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
  run: runReport,
});
