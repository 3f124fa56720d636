/**
 * `coachbench merge SHARD.json... --out DIR`: one report folder from the shard reports of
 * one run. Exit 0 when the merged verdict passes; 1 when it fails or is incomplete (a shard
 * missing or interrupted; the report is written); 2 when a file is unreadable, holds bad
 * data, or the files are not shards of one run.
 */
import { type MergeFlags, runMerge } from '../orchestration/commands/merge.js';
import { defineCommand } from './cli-command.js';
import { textOption } from './flag-values.js';

export const mergeCommand = defineCommand<MergeFlags>({
  command: 'merge <shards..>',
  describe: 'merge the report.json files of the shards of one run (--shard I/N) into one report folder',
  builder: (yargs) =>
    yargs
      .positional('shards', { type: 'string', array: true, describe: 'report.json of each shard', demandOption: true })
      .option('out', textOption('--out', { alias: 'o', demandOption: true, describe: 'folder for the merged report.json, report.html, junit.xml, summary.md' }))
      .option('quiet', { alias: 'q', type: 'boolean', describe: 'print only warnings, the verdict and the report path' })
      .example('$0 merge shard-*/report.json --out merged/', 'one report folder from the shards of one run')
      .example('$0 merge a/report.json b/report.json -o merged --quiet', 'the same, printing only warnings, the verdict and the report path') as never,
  run: runMerge,
});
