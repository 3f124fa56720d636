/** `coachbench profiles`: the built-in profiles with their duration and load, one per line. */

import { runProfiles } from '../orchestration/commands/profiles.js';
import { defineCommand } from './cli-command.js';

export const profilesCommand = defineCommand({
  command: 'profiles',
  describe: 'list the built-in profiles',
  builder: (yargs) => yargs.example('$0 profiles', 'name, duration and load of each built-in profile').example('$0 run --profile release', 'run one of them'),
  run: runProfiles,
});
