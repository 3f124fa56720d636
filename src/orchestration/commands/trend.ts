/** The work of `coachbench trend` (src/cli/trend.ts declares its flags). */

import { parseFloors, parseRegressionLimit } from '../../report/compare/regression-limit.js';
import { buildTrend } from '../../report/trend/build-trend.js';
import { DEFAULT_E_DIVISIVE } from '../../report/trend/e-divisive.js';
import { expandInputs, readHistory } from '../../report/trend/read-history.js';
import type { Trend } from '../../report/trend/trend-model.js';
import { describeRun, regressionSentence, trendVerdict } from '../../report/trend/trend-words.js';
import { writeTrendFiles } from '../../report/trend/write-trend.js';
import { ConfigError, ExitCode } from '../../util/errors.js';
import { escapeInvisible, terminalText } from '../../util/printable.js';
import { cannotWrite } from '../../util/system-error.js';
import { prepareOutputDir } from '../output-dir.js';
import { defaultRunId } from '../run-session.js';

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

/**
 * What trend prints. `quiet` keeps what a nightly log must show, as `run --quiet` does (docs/design.md
 * §2.2, §2.4): the verdict, the notes (a thresholded metric not followed, or missing from runs),
 * every regression and where the files went; it drops the skipped reports and the change points,
 * which the files list too.
 */
function summaryLines(trend: Trend, outDir: string, quiet: boolean): string[] {
  const lines = [`trend: ${trendVerdict(trend)}`];
  if (!quiet) for (const skip of trend.skipped) lines.push(`  skipped ${skip.file}: ${skip.reason}`);
  for (const note of trend.notes) lines.push(`  note: ${note}`);
  if (!quiet) {
    for (const series of trend.series) {
      for (const change of series.changePoints) {
        const run = trend.runs[change.run - 1];
        const where = run ? describeRun(run) : `run ${change.run}`;
        lines.push(`  change: ${change.metric} at ${where}: ${change.kind}${change.provisional ? ' (newest runs only, so far)' : ''}`);
      }
    }
  }
  for (const change of trend.regressions) lines.push(`REGRESSION: ${regressionSentence(change, trend.runs)}`);
  lines.push(`trend: ${outDir}/trend.html, trend.md, trend.json`);
  return lines;
}

export async function runTrend(flags: TrendFlags): Promise<number> {
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
    throw cannotWrite('--out', outDir, error);
  });
  // Each line escaped whole: a run id or file name holding a line break cannot forge a REGRESSION line.
  const shown = summaryLines(trend, outDir, flags.quiet ?? false).map((line) => escapeInvisible(line));
  process.stdout.write(terminalText(`${shown.join('\n')}\n`));
  return flags['fail-on-regression'] && trend.regressions.length > 0 ? ExitCode.failed : ExitCode.ok;
}
