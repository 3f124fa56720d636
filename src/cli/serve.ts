import { defineCommand } from './cli-command.js';
import { ConfigError } from '../util/errors.js';

/** Placeholder until the owning issue lands. */
export const serveCommand = defineCommand({
  command: 'serve',
  describe: 'serve (not implemented yet)',
  builder: (yargs) => yargs,
  run: async () => {
    throw new ConfigError('serve is not implemented yet');
  },
});
