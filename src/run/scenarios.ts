/** The scenarios of a run and the share of participants this process drives. */
import { chatStreamsScenario } from '../drivers/chat/chat-scenario.js';
import { photoUploadScenario, probesScenario, tagLinkScenario } from '../drivers/throughput/index.js';
import type { Profile } from '../profile/profile-types.js';
import type { ShardInfo } from '../report/report-types.js';
import type { RunFixtures, Scenario } from './scenario.js';

export function scenariosFor(profile: Profile, runTag: string): Scenario[] {
  const scenarios: Scenario[] = [chatStreamsScenario(runTag), probesScenario];
  if (profile.photoUpload.enabled) scenarios.push(photoUploadScenario);
  if (profile.tagLink.enabled) scenarios.push(tagLinkScenario);
  return scenarios;
}

/**
 * Shard I of N drives every N-th of the profile's participants. A participant's sessions
 * never split across shards, so a message's sender and all its observers share one clock.
 */
export function shardFixtures(fixtures: RunFixtures, participants: number, shard: ShardInfo | null): RunFixtures {
  const planned = fixtures.participants.slice(0, participants);
  const mine = shard ? planned.filter((_, i) => i % shard.count === shard.index) : planned;
  return { ...fixtures, participants: mine };
}
