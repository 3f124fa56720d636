/**
 * A profile's rates and connection counts are totals for the whole run. A shard or worker
 * that drives 1/parts of the participants also drives 1/parts of every rate, so that N
 * shards together apply exactly the load the profile describes.
 */
import type { Profile, ThroughputSettings } from '../profile/profile-types.js';

function shareThroughput<T extends ThroughputSettings>(settings: T, parts: number): T {
  return {
    ...settings,
    ratePerSec: settings.ratePerSec / parts,
    rampToPerSec: settings.rampToPerSec / parts,
    maxInFlight: Math.max(1, Math.ceil(settings.maxInFlight / parts)),
    connections: Math.max(1, Math.ceil(settings.connections / parts)),
  };
}

export function profileShare(profile: Profile, parts: number): Profile {
  if (parts <= 1) return profile;
  return {
    ...profile,
    chatStreams: {
      ...profile.chatStreams,
      rampPerSec: profile.chatStreams.rampPerSec / parts,
      messageRatePerSec: profile.chatStreams.messageRatePerSec / parts,
      churnRatePerSec: profile.chatStreams.churnRatePerSec / parts,
    },
    photoUpload: shareThroughput(profile.photoUpload, parts),
    tagLink: shareThroughput(profile.tagLink, parts),
  };
}
