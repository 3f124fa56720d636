/** The work of `coachbench compare` (src/cli/compare.ts declares its flags). */
import { writeFile } from 'node:fs/promises';
import { compareReports } from '../../report/compare/compare.js';
import { assertComparable } from '../../report/compare/compare-warnings.js';
import { parseFloors, parseMetricLimits, parseRegressionLimit } from '../../report/compare/regression-limit.js';
import { renderCompareHtml } from '../../report/compare/render-compare-html.js';
import { renderCompareMarkdown } from '../../report/compare/render-compare-markdown.js';
import { renderCompareText } from '../../report/compare/render-compare-text.js';
import { ExitCode } from '../../util/errors.js';
import { escapeInvisible, terminalText } from '../../util/printable.js';
import { cannotWrite } from '../../util/system-error.js';
import { readReportFile } from './read-report.js';

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

/** Writes one view the user asked for; a path that cannot take it is bad input (exit 2), not a defect. */
async function writeView(flag: string, path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text);
  } catch (error) {
    throw cannotWrite(flag, path, error);
  }
}

export async function runCompare(flags: CompareFlags): Promise<number> {
  const options = {
    maxRegression: parseRegressionLimit(flags['max-regression'], '--max-regression'),
    perMetric: parseMetricLimits(flags['metric-regression'] ?? [], '--metric-regression'),
    floors: parseFloors(flags.floor ?? [], '--floor'),
  };
  const [baseline, candidate] = await Promise.all([readReportFile(flags.baseline), readReportFile(flags.candidate)]);
  if (flags.strict) assertComparable(baseline, candidate);
  const comparison = compareReports(baseline, candidate, options);
  // The files first: a path that cannot take one is one line and exit 2, with no table above it.
  if (flags.markdown) await writeView('--markdown', flags.markdown, renderCompareMarkdown(comparison));
  if (flags.html) await writeView('--html', flags.html, renderCompareHtml(comparison, baseline, candidate));
  for (const warning of comparison.warnings) process.stderr.write(terminalText(`coachbench compare: warning: ${escapeInvisible(warning)}\n`));
  process.stdout.write(terminalText(renderCompareText(comparison, { all: flags.all ?? false })));
  return comparison.regressions.length > 0 ? ExitCode.failed : ExitCode.ok;
}
