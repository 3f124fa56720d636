import { defineCommand } from './cli-command.js';
import { ConfigError } from '../util/errors.js';

/** Placeholder until the owning issue lands. */
export const runCommand = defineCommand({
  command: 'run',
  describe: 'run (not implemented yet)',
  builder: (yargs) => yargs,
  run: async () => {
    throw new ConfigError('run is not implemented yet');
  },
});
