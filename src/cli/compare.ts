import { defineCommand } from './cli-command.js';
import { ConfigError } from '../util/errors.js';

/** Placeholder until the owning issue lands. */
export const compareCommand = defineCommand({
  command: 'compare',
  describe: 'compare (not implemented yet)',
  builder: (yargs) => yargs,
  run: async () => {
    throw new ConfigError('compare is not implemented yet');
  },
});
