/**
 * `coachbench compare BASELINE.json CANDIDATE.json`: prints the side-by-side table, writes
 * optional Markdown/HTML views, and exits 1 when any metric regressed beyond its limit
 * (0 otherwise; 2 for unreadable reports or bad limits).
 */
import { writeFile } from 'node:fs/promises';
import { compareReports } from '../report/compare/compare.js';
import { assertComparable } from '../report/compare/compare-warnings.js';
import { renderCompareHtml } from '../report/compare/render-compare-html.js';
import { renderCompareMarkdown } from '../report/compare/render-compare-markdown.js';
import { renderCompareText } from '../report/compare/render-compare-text.js';
import { ExitCode } from '../util/errors.js';
import { defineCommand } from './cli-command.js';
import { repeatableOption, textOption } from './flag-values.js';
import { readReportFile } from './read-report.js';
import { parseFloors, parseMetricLimits, parseRegressionLimit } from './regression-limit.js';

export interface CompareFlags {
  baseline: string;
  candidate: string;
  'max-regression': string;
  'metric-regression'?: string[];
  floor?: string[];
  markdown?: string;
  html?: string;
  all?: boolean;
  strict?: boolean;
}

export const compareCommand = defineCommand<CompareFlags>({
  command: 'compare <baseline> <candidate>',
  describe: 'compare two report.json files metric by metric; exit 1 on a regression',
  builder: (yargs) =>
    yargs
      .positional('baseline', { type: 'string', describe: 'the reference report.json', demandOption: true })
      .positional('candidate', { type: 'string', describe: 'the report.json under judgement', demandOption: true })
      .option('max-regression', textOption('--max-regression', { default: '10%', describe: 'allowed worsening of any judged metric (10% or 0.1)' }))
      .option('metric-regression', repeatableOption({ describe: 'per-metric (or prefix) override, repeatable: chatStreams.eventLatencyMs.p99=25%' }))
      .option(
        'floor',
        repeatableOption({ describe: 'raise the absolute floor of a unit, repeatable: ms=5 ignores latency changes under 5 ms (noisy runners)' }),
      )
      .option('markdown', textOption('--markdown', { describe: 'also write the comparison as Markdown here' }))
      .option('html', textOption('--html', { describe: 'also write the comparison as a self-contained HTML page here' }))
      .option('all', { type: 'boolean', default: false, describe: 'show quiet rows in the terminal table too' })
      .option('strict', { type: 'boolean', default: false, describe: 'refuse (exit 2) to compare reports whose profile, target or duration differ' })
      .example('$0 compare base/report.json new/report.json', 'the table; exit 1 when a judged metric worsened beyond 10%')
      .example('$0 compare a.json b.json --max-regression 5%', 'a tighter limit for every metric')
      .example('$0 compare a.json b.json --floor ms=5 --markdown c.md', 'ignore changes under 5 ms; Markdown for a PR comment') as never,
  run: async (flags) => {
    const options = {
      maxRegression: parseRegressionLimit(flags['max-regression'], '--max-regression'),
      perMetric: parseMetricLimits(flags['metric-regression'] ?? [], '--metric-regression'),
      floors: parseFloors(flags.floor ?? [], '--floor'),
    };
    const [baseline, candidate] = await Promise.all([readReportFile(flags.baseline), readReportFile(flags.candidate)]);
    if (flags.strict) assertComparable(baseline, candidate);
    const comparison = compareReports(baseline, candidate, options);
    for (const warning of comparison.warnings) process.stderr.write(`coachbench compare: warning: ${warning}\n`);
    process.stdout.write(renderCompareText(comparison, { all: flags.all ?? false }));
    if (flags.markdown) await writeFile(flags.markdown, renderCompareMarkdown(comparison));
    if (flags.html) await writeFile(flags.html, renderCompareHtml(comparison, baseline, candidate));
    return comparison.regressions.length > 0 ? ExitCode.failed : ExitCode.ok;
  },
});
