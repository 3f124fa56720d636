import { defineCommand } from './cli-command.js';
import { ConfigError } from '../util/errors.js';

/** Placeholder until the owning issue lands. */
export const reportCommand = defineCommand({
  command: 'report',
  describe: 'report (not implemented yet)',
  builder: (yargs) => yargs,
  run: async () => {
    throw new ConfigError('report is not implemented yet');
  },
});
