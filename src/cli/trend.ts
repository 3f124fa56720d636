/**
 * `coachbench trend REPORT...`: the history of a profile's runs (files, folders, globs),
 * its change points, and trend.html, trend.md and trend.json in --out. Exit 0; with
 * --fail-on-regression, 1 when the newest run begins or continues a significant regression
 * in a metric that has a threshold; 2 for bad flags, inputs that name nothing, or no
 * usable report (unusable files alone are skipped with their reason).
 */
import { prepareOutputDir } from '../orchestration/output-dir.js';
import { defaultRunId } from '../orchestration/run-session.js';
import { buildTrend } from '../report/trend/build-trend.js';
import { DEFAULT_E_DIVISIVE } from '../report/trend/e-divisive.js';
import { expandInputs, readHistory } from '../report/trend/read-history.js';
import type { Trend } from '../report/trend/trend-model.js';
import { describeRun, regressionSentence, trendVerdict } from '../report/trend/trend-words.js';
import { writeTrendFiles } from '../report/trend/write-trend.js';
import { ConfigError, ExitCode } from '../util/errors.js';
import { describeSystemError, systemErrorCode } from '../util/system-error.js';
import { defineCommand } from './cli-command.js';
import { integerOption, repeatableOption, textOption } from './flag-values.js';
import { parseFloors, parseRegressionLimit } from './regression-limit.js';

export interface TrendFlags {
  reports: string[];
  out?: string;
  profile?: string;
  'fail-on-regression'?: boolean;
  significance: string;
  permutations: number;
  floor?: string[];
  quiet?: boolean;
}

const MAX_PERMUTATIONS = 9_999;

/** `1%` or `0.01`: a level in (0, 0.5] that the permutation count can reach. */
function parseSignificance(text: string, permutations: number): number {
  const level = parseRegressionLimit(text, '--significance');
  if (!(level > 0 && level <= 0.5)) throw new ConfigError(`--significance: ${text} must be above 0 and at most 50% (e.g. 1% or 0.05)`);
  if (1 / (permutations + 1) > level) {
    throw new ConfigError(
      `--significance ${text} cannot be reached with --permutations ${permutations}: use at least ${Math.ceil(1 / level) - 1} permutations`,
    );
  }
  return level;
}

function summaryLines(trend: Trend, outDir: string): string[] {
  const lines = [`trend: ${trendVerdict(trend)}`];
  for (const skip of trend.skipped) lines.push(`  skipped ${skip.file}: ${skip.reason}`);
  for (const note of trend.notes) lines.push(`  note: ${note}`);
  for (const series of trend.series) {
    for (const change of series.changePoints) {
      const run = trend.runs[change.run - 1];
      const where = run ? describeRun(run) : `run ${change.run}`;
      lines.push(`  change: ${change.metric} at ${where}: ${change.kind}${change.provisional ? ' (newest runs only, so far)' : ''}`);
    }
  }
  for (const change of trend.regressions) lines.push(`REGRESSION: ${regressionSentence(change, trend.runs)}`);
  lines.push(`trend: ${outDir}/trend.html, trend.md, trend.json`);
  return lines;
}

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
      .option('quiet', { alias: 'q', type: 'boolean', describe: 'print only regressions' })
      .example('$0 trend reports/nightly/', 'every report.json under the folder, oldest to newest, into reports/trend-<stamp>/')
      .example('$0 trend "reports/nightly-*/report.json" --fail-on-regression -o trend/', 'exit 1 on the night a thresholded metric starts to regress')
      .example('$0 trend reports/ --significance 5% --floor ms=5', 'a looser level; ignore latency shifts under 5 ms') as never,
  run: async (flags) => {
    if (!(flags.permutations >= 19 && flags.permutations <= MAX_PERMUTATIONS)) {
      throw new ConfigError(`--permutations: ${flags.permutations} must be a whole number in 19..${MAX_PERMUTATIONS}`);
    }
    const settings = {
      significance: parseSignificance(flags.significance, flags.permutations),
      permutations: flags.permutations,
      minSegment: DEFAULT_E_DIVISIVE.minSegment,
      floors: parseFloors(flags.floor ?? [], '--floor'),
    };
    const generatedAt = new Date();
    const history = await readHistory(await expandInputs(flags.reports));
    const trend = buildTrend(history.entries, history.skipped, { settings, generatedAt, ...(flags.profile ? { profile: flags.profile } : {}) });
    const outDir = flags.out ?? `reports/${defaultRunId('trend', generatedAt)}`;
    await prepareOutputDir(outDir);
    await writeTrendFiles(outDir, trend).catch((error: unknown) => {
      if (systemErrorCode(error) === undefined) throw error;
      throw new ConfigError(`--out ${outDir}: ${describeSystemError(error)}`);
    });
    const lines = summaryLines(trend, outDir);
    process.stdout.write(`${(flags.quiet ? lines.filter((line) => line.startsWith('REGRESSION')) : lines).join('\n')}\n`);
    return flags['fail-on-regression'] && trend.regressions.length > 0 ? ExitCode.failed : ExitCode.ok;
  },
});
