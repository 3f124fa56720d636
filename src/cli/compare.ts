/**
 * `coachbench compare BASELINE.json CANDIDATE.json`: prints the side-by-side table, writes
 * optional Markdown/HTML views, and exits 1 when any metric regressed beyond its limit
 * (0 otherwise; 2 for unreadable reports or bad limits).
 */
import { type CompareFlags, runCompare } from '../orchestration/commands/compare.js';
import { defineCommand } from './cli-command.js';
import { repeatableOption, textOption } from './flag-values.js';

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
  run: runCompare,
});
