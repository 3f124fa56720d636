import { defineCommand } from './cli-command.js';
import { ConfigError } from '../util/errors.js';

/** Placeholder until the owning issue lands. */
export const profilesCommand = defineCommand({
  command: 'profiles',
  describe: 'profiles (not implemented yet)',
  builder: (yargs) => yargs,
  run: async () => {
    throw new ConfigError('profiles is not implemented yet');
  },
});
