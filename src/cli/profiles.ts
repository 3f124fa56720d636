/** `coachbench profiles`: the built-in profiles with their duration and load, one per line. */

import { builtInProfiles, loadProfile } from '../contract/profile/load-profile.js';
import { formatDuration } from '../util/duration.js';
import { terminalText } from '../util/printable.js';
import { defineCommand } from './cli-command.js';

export const profilesCommand = defineCommand({
  command: 'profiles',
  describe: 'list the built-in profiles',
  builder: (yargs) => yargs.example('$0 profiles', 'name, duration and load of each built-in profile').example('$0 run --profile release', 'run one of them'),
  run: async () => {
    for (const name of await builtInProfiles()) {
      const profile = await loadProfile(name);
      const load = [
        profile.chatStreams.enabled ? `${profile.chatStreams.participants} participants` : null,
        profile.photoUpload.enabled ? `photo ${profile.photoUpload.model}` : null,
        profile.tagLink.enabled ? `tags ${profile.tagLink.model}` : null,
        profile.requests ? `${profile.requests.kinds.length} request kinds` : null,
        profile.search ? 'capacity search' : null,
      ]
        .filter(Boolean)
        .join(', ');
      process.stdout.write(terminalText(`${name.padEnd(14)} ${formatDuration(profile.durationMs).padEnd(8)} ${load}\n  ${profile.description}\n`));
    }
    return 0;
  },
});
