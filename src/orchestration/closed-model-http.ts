/**
 * What `--http auto` means for the closed model (docs/design.md §2.14): autocannon speaks
 * HTTP/1.1 only, so over TLS, where the other drivers take h2 when the target offers it, its
 * scenarios stay on HTTP/1.1, and the run says so in one informative line. In plain text
 * `auto` is HTTP/1.1 for every driver: nothing differs, nothing is said.
 */
import type { Profile } from '../contract/profile/profile.js';
import type { HttpVersion } from '../engine/transport.js';

/** The scenarios of `profile` that run the closed model, by the names a profile gives them. */
export function closedModelScenarios(profile: Profile): string[] {
  const named = [
    ['photoUpload', profile.photoUpload],
    ['tagLink', profile.tagLink],
    ...(profile.requests?.kinds ?? []).map((kind) => [`requests.${kind.name}`, kind] as const),
  ] as const;
  return named.filter(([, settings]) => settings.enabled && settings.model === 'closed').map(([name]) => name);
}

/** The line a run prints when `--http auto` leaves its closed-model scenarios on HTTP/1.1; null when there is nothing to say. */
export function closedModelHttpNote(profile: Profile, http: HttpVersion, targetUrl: string): string | null {
  if (http !== 'auto' || !targetUrl.startsWith('https:')) return null;
  const scenarios = closedModelScenarios(profile);
  if (scenarios.length === 0) return null;
  return `--http auto: ${scenarios.join(', ')} (closed model) ${scenarios.length === 1 ? 'stays' : 'stay'} on HTTP/1.1, which autocannon alone speaks; the other requests and streams take h2 where the target offers it`;
}
