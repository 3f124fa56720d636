/** A profile from an object, validated and resolved exactly as a profile file is. */

import { validateProfileFile } from '../../src/contract/profile/load-profile.js';
import type { Profile } from '../../src/contract/profile/profile.js';
import { resolveProfile } from '../../src/contract/profile/resolve-profile.js';

export function loadProfileText(data: Record<string, unknown>, source = 'test-profile.json'): Profile {
  return resolveProfile(validateProfileFile(data, source), source);
}
