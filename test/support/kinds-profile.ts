/** A requests-only profile with two request kinds, as the dashboard's and report's kinds tests use it. */
import type { Profile } from '../../src/contract/profile/profile.js';
import { loadProfileText } from './profile-text.js';

export function twoKindsProfile(name: string): Profile {
  return loadProfileText({
    name,
    duration: '30s',
    chatStreams: { enabled: false },
    requests: {
      ratePerSec: 40,
      kinds: [
        { name: 'getSession', method: 'GET', path: '/participants/{userId}/chat_sessions/{sessionId}', weight: 3 },
        { name: 'searchSessions', method: 'POST', path: '/participants/{userId}/chat_sessions/search', body: { limit: 2 } },
      ],
    },
  });
}
