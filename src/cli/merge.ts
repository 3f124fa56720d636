import { defineCommand } from './cli-command.js';
import { ConfigError } from '../util/errors.js';

/** Placeholder until the owning issue lands. */
export const mergeCommand = defineCommand({
  command: 'merge',
  describe: 'merge (not implemented yet)',
  builder: (yargs) => yargs,
  run: async () => {
    throw new ConfigError('merge is not implemented yet');
  },
});
