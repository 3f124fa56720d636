/** The work of `coachbench profiles` (src/cli/profiles.ts): the built-in profiles with their duration and load, one per line. */
import { builtInProfiles, loadProfile } from '../../contract/profile/load-profile.js';
import { formatDuration } from '../../util/duration.js';
import { ExitCode } from '../../util/errors.js';
import { terminalText } from '../../util/printable.js';

export async function runProfiles(): Promise<number> {
  for (const name of await builtInProfiles()) {
    const profile = await loadProfile(name);
    const load = [
      `${profile.chatStreams.participants} participants`,
      profile.photoUpload.enabled ? `photo ${profile.photoUpload.model}` : null,
      profile.tagLink.enabled ? `tags ${profile.tagLink.model}` : null,
      profile.requests ? `${profile.requests.kinds.length} request kinds` : null,
      profile.search ? 'capacity search' : null,
    ]
      .filter(Boolean)
      .join(', ');
    process.stdout.write(terminalText(`${name.padEnd(14)} ${formatDuration(profile.durationMs).padEnd(8)} ${load}\n  ${profile.description}\n`));
  }
  return ExitCode.ok;
}
