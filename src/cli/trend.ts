/**
 * `coachbench trend REPORT...`: the history of a profile's runs (files, folders, globs),
 * its change points, and trend.html, trend.md and trend.json in --out. Exit 0; with
 * --fail-on-regression, 1 when the newest run begins or continues a significant regression
 * in a metric that has a threshold; 2 for bad flags, inputs that name nothing, or no
 * usable report (unusable files alone are skipped with their reason).
 */

import { runTrend, type TrendFlags } from '../orchestration/commands/trend.js';
import { DEFAULT_E_DIVISIVE } from '../report/trend/e-divisive.js';
import { defineCommand } from './cli-command.js';
import { integerOption, repeatableOption, textOption } from './flag-values.js';

export const trendCommand = defineCommand<TrendFlags>({
  command: 'trend <reports..>',
  describe: "a profile's runs over time: change points, trend.html/.md/.json; --fail-on-regression for nightly CI",
  builder: (yargs) =>
    yargs
      .positional('reports', {
        type: 'string',
        array: true,
        describe: 'report.json files, folders holding them (searched 4 deep) or quoted globs',
        demandOption: true,
      })
      .option('out', textOption('--out', { alias: 'o', describe: 'folder for trend.html, trend.md, trend.json (default: reports/trend-<UTC stamp>)' }))
      .option('profile', textOption('--profile', { alias: 'p', describe: "the profile whose runs to follow (default: the newest report's)" }))
      .option('fail-on-regression', {
        type: 'boolean',
        default: false,
        describe: 'exit 1 when the newest run begins or continues a significant regression in a metric with a threshold',
      })
      .option(
        'significance',
        textOption('--significance', { default: '5%', describe: 'level a change point must be significant at (5% or 0.05; one newest run alone: at most 1%)' }),
      )
      .option('permutations', integerOption('--permutations', { default: DEFAULT_E_DIVISIVE.permutations, describe: 'shuffles per permutation test' }))
      .option('floor', repeatableOption({ describe: 'raise the smallest shift that counts for a unit, repeatable: ms=5 (noisy runners)' }))
      .option('quiet', { alias: 'q', type: 'boolean', describe: 'print only the verdict, notes, regressions and where the files went' })
      .example('$0 trend reports/nightly/', 'every report.json under the folder, oldest to newest, into reports/trend-<stamp>/')
      .example('$0 trend "reports/nightly-*/report.json" --fail-on-regression -o trend/', 'exit 1 on the night a thresholded metric starts to regress')
      .example('$0 trend reports/ --significance 10% --floor ms=5', 'a looser level than the default 5%; ignore latency shifts under 5 ms') as never,
  run: runTrend,
});
