/** The work of `coachbench merge` (src/cli/merge.ts declares its flags). */
import { basename, dirname, resolve } from 'node:path';
import type { Report } from '../../contract/report.js';
import { mergeReports } from '../../report/merge/merge-reports.js';
import { ReportWriteError, writeReportFiles } from '../../report/write-report.js';
import { ConfigError, ExitCode } from '../../util/errors.js';
import { escapeInvisible, terminalText } from '../../util/printable.js';
import { cannotWrite } from '../../util/system-error.js';
import { describeOutcome } from '../outcome-line.js';
import { prepareOutputDir } from '../output-dir.js';
import { lockRunFolder } from '../run-folder-lock.js';
import { readReportFile } from './read-report.js';

export interface MergeFlags {
  shards: string[];
  out: string;
  quiet?: boolean;
}

/**
 * Reads every file before failing, so one run of the command names every bad file. Only the
 * files' own problems (ConfigError, each naming its file) are the user's; anything else is a
 * defect and stays one (exit 4), rather than a nameless exit 2.
 */
async function loadAll(paths: readonly string[]): Promise<Report[]> {
  const results = await Promise.allSettled(paths.map((path) => readReportFile(path)));
  const defect = results.find((r) => r.status === 'rejected' && !(r.reason instanceof ConfigError));
  if (defect) throw (defect as PromiseRejectedResult).reason;
  const problems = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as ConfigError).message] : []));
  if (problems.length > 0) throw new ConfigError(problems.join('; '));
  return results.map((r) => (r as PromiseFulfilledResult<Report>).value);
}

/** Writing into a shard's own folder would replace that shard's report.json with the merge. */
function checkOutDir(out: string, paths: readonly string[]): void {
  const outDir = resolve(out);
  const clash = paths.find((path) => dirname(resolve(path)) === outDir);
  if (clash) throw new ConfigError(`--out ${out} holds the shard report ${clash}; write the merged report to another folder`);
}

export async function runMerge(flags: MergeFlags): Promise<number> {
  const paths = flags.shards;
  checkOutDir(flags.out, paths);
  const reports = await loadAll(paths);
  const report = mergeReports(reports, paths);
  // Only once the shards are known to merge: a refused merge leaves no folder behind.
  await prepareOutputDir(flags.out);
  // The merged report.json must not land over a run still writing that folder, nor another merge.
  const lock = await lockRunFolder(flags.out);
  try {
    await writeReportFiles(flags.out, report).catch((error: unknown) => {
      if (!(error instanceof ReportWriteError)) throw error;
      throw cannotWrite('--out', flags.out, error.cause, `cannot write ${basename(error.path)}`);
    });
  } finally {
    await lock.release();
  }
  // A shard that was cut short leaves the run incomplete: never a pass. Not 130 either,
  // which says that this process was interrupted (docs/design.md §2.9).
  const exitCode = report.verdict === 'pass' && !report.interrupted ? ExitCode.ok : ExitCode.failed;
  // --quiet silences only what informs; a shard's warning and the closing lines are what a
  // CI log keeps of the merge, as of a run (docs/design.md §2.2, §2.4).
  const heading = flags.quiet ? [] : [`merged ${reports.length} shard report${reports.length === 1 ? '' : 's'}`];
  const notes = report.warnings.map((warning) => `  ! ${escapeInvisible(warning)}`);
  process.stderr.write(terminalText(`${[...heading, ...notes, describeOutcome({ exitCode, report, outDir: flags.out })].join('\n')}\n`));
  return exitCode;
}
