/**
 * `coachbench compare BASELINE.json CANDIDATE.json`: prints the side-by-side table, writes
 * optional Markdown/HTML views, and exits 1 when any metric regressed beyond its limit
 * (0 otherwise; 2 for unreadable reports or bad limits).
 */
import { writeFile } from 'node:fs/promises';
import { loadReport } from '../contract/validate-report.js';
import { compareReports } from '../report/compare/compare.js';
import { renderCompareHtml } from '../report/compare/render-compare-html.js';
import { renderCompareMarkdown } from '../report/compare/render-compare-markdown.js';
import { renderCompareText } from '../report/compare/render-compare-text.js';
import { ExitCode } from '../util/errors.js';
import { defineCommand } from './cli-command.js';
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
}

export const compareCommand = defineCommand<CompareFlags>({
  command: 'compare <baseline> <candidate>',
  describe: 'compare two report.json files metric by metric; exit 1 on a regression',
  builder: (yargs) =>
    yargs
      .positional('baseline', { type: 'string', describe: 'the reference report.json', demandOption: true })
      .positional('candidate', { type: 'string', describe: 'the report.json under judgement', demandOption: true })
      .option('max-regression', { type: 'string', default: '10%', describe: 'allowed worsening of any judged metric (10% or 0.1)' })
      .option('metric-regression', {
        type: 'string',
        array: true,
        describe: 'per-metric (or prefix) override, repeatable: chatStreams.eventLatencyMs.p99=25%',
      })
      .option('floor', {
        type: 'string',
        array: true,
        describe: 'raise the absolute floor of a unit, repeatable: ms=5 ignores latency changes under 5 ms (noisy runners)',
      })
      .option('markdown', { type: 'string', describe: 'also write the comparison as Markdown here' })
      .option('html', { type: 'string', describe: 'also write the comparison as a self-contained HTML page here' })
      .option('all', { type: 'boolean', default: false, describe: 'show quiet rows in the terminal table too' }) as never,
  run: async (flags) => {
    const options = {
      maxRegression: parseRegressionLimit(flags['max-regression'], '--max-regression'),
      perMetric: parseMetricLimits(flags['metric-regression'] ?? [], '--metric-regression'),
      floors: parseFloors(flags.floor ?? [], '--floor'),
    };
    const [baseline, candidate] = await Promise.all([loadReport(flags.baseline), loadReport(flags.candidate)]);
    const comparison = compareReports(baseline, candidate, options);
    process.stdout.write(renderCompareText(comparison, { all: flags.all ?? false }));
    if (flags.markdown) await writeFile(flags.markdown, renderCompareMarkdown(comparison));
    if (flags.html) await writeFile(flags.html, renderCompareHtml(comparison, baseline, candidate));
    return comparison.regressions.length > 0 ? ExitCode.failed : ExitCode.ok;
  },
});
