/**
 * How a run is divided between shards and driver workers.
 *
 * A profile's rates and connection counts are totals for the whole run. A shard or worker
 * that drives 1/parts of the participants also drives 1/parts of every rate, so that N
 * shards together apply exactly the load the profile describes. A population (chat stages)
 * is not divided: it stays the whole run's, and each participant carries its rank in the
 * whole run, so that the participants with rank below the planned population are online in
 * whichever process holds them (the sum over processes is exact at every instant).
 * Closed-model connections are dealt out the same way, one by one: process `part` opens
 * every `parts`-th of them, so the processes together open exactly the profile's count, and
 * a process dealt none runs no closed-model connection for that scenario (docs/design.md §2.2).
 */
import type { Profile, ThroughputSettings } from '../contract/profile/profile.js';
import { scaleStages } from '../contract/profile/stage-plan.js';
import type { ShardInfo } from '../contract/report.js';
import type { RunFixtures } from '../engine/scenario.js';
import { dealtShare } from '../util/dealt-share.js';
import { ConfigError } from '../util/errors.js';

function shareThroughput<T extends ThroughputSettings>(settings: T, part: number, parts: number): T {
  const connections = dealtShare(settings.connections, part, parts);
  return {
    ...settings,
    // A closed model dealt no connection here runs nowhere here; its peers open them all.
    enabled: settings.enabled && (settings.model !== 'closed' || connections > 0),
    ratePerSec: settings.ratePerSec / parts,
    rampToPerSec: settings.rampToPerSec / parts,
    maxInFlight: dealtShare(settings.maxInFlight, part, parts),
    connections,
    stages: settings.stages ? scaleStages(settings.stages, 1 / parts) : null,
  };
}

/** Every enabled throughput load of a profile, named as a message names it. */
function throughputLoads(profile: Profile): { name: string; settings: ThroughputSettings }[] {
  const kinds = (profile.requests?.kinds ?? []).map((kind) => ({ name: `request kind "${kind.name}"`, settings: kind }));
  return [{ name: 'photoUpload', settings: profile.photoUpload }, { name: 'tagLink', settings: profile.tagLink }, ...kinds].filter(
    (load) => load.settings.enabled,
  );
}

/**
 * Refuses more processes than an open model's in-flight bound: each process is dealt every
 * N-th of the `maxInFlight` requests, and one dealt none could send none of its share of
 * the rate (docs/design.md §2.2). `how` names what made the processes (a flag).
 */
export function checkInFlightSplits(profile: Profile, parts: number, how: string): void {
  for (const { name, settings } of throughputLoads(profile)) {
    if (settings.model !== 'open' || parts <= settings.maxInFlight) continue;
    throw new ConfigError(
      `${how}: ${parts} driver processes but ${profile.source}'s ${name} allows ${settings.maxInFlight} requests in flight; each process needs at least one, so raise maxInFlight to ${parts} or run fewer processes`,
    );
  }
}

/** What process `part` of `parts` drives: 1/parts of every rate, its dealt share of every connection count and in-flight bound. */
export function profileShare(profile: Profile, part: number, parts: number): Profile {
  if (parts <= 1) return profile;
  return {
    ...profile,
    chatStreams: {
      ...profile.chatStreams,
      rampPerSec: profile.chatStreams.rampPerSec / parts,
      messageRatePerSec: profile.chatStreams.messageRatePerSec / parts,
      churnRatePerSec: profile.chatStreams.churnRatePerSec / parts,
    },
    photoUpload: shareThroughput(profile.photoUpload, part, parts),
    tagLink: shareThroughput(profile.tagLink, part, parts),
    // Each request kind's load is a total for the run too (docs/design.md §2.15).
    ...(profile.requests ? { requests: { ...profile.requests, kinds: profile.requests.kinds.map((kind) => shareThroughput(kind, part, parts)) } } : {}),
  };
}

/**
 * Shard I of N drives every N-th of the profile's participants. A participant's sessions
 * never split across shards, so a message's sender and all its observers share one clock.
 */
export function shardFixtures(fixtures: RunFixtures, participants: number, shard: ShardInfo | null): RunFixtures {
  const planned = fixtures.participants.slice(0, participants).map((participant, rank) => ({ ...participant, rank }));
  const mine = shard ? planned.filter((_, i) => i % shard.count === shard.index) : planned;
  return { ...fixtures, participants: mine };
}

/**
 * The participants a run can hold when its fixtures file has fewer than the profile asks for
 * (the driver brings only those online), with the one line that says so; null when there are enough.
 */
export function fixturesCap(profile: Profile, fixtureParticipants: number): { participants: number; reason: string } | null {
  const chat = profile.chatStreams;
  if (!chat.enabled || fixtureParticipants >= chat.participants) return null;
  return {
    participants: fixtureParticipants,
    reason:
      `the fixtures file holds ${fixtureParticipants} participants, fewer than the profile's ${chat.participants}: ` +
      `the run holds ${fixtureParticipants}, and the report, its plan and load.achieved count ${fixtureParticipants}`,
  };
}

/**
 * Refuses a shard count that would not split the profile: a shard holds every N-th
 * participant and is dealt every N-th closed-model connection, so with more shards than
 * participants or connections some shards would hold none, and their reports would judge a
 * scenario they never ran (docs/design.md §2.2; workers, one report, may be dealt none). `fixtureParticipants`
 * caps the participants when a fixtures file is known. Returns the shard when it fits.
 */
export function checkShardFits(shard: ShardInfo, profile: Profile, fixtureParticipants: number | null): ShardInfo {
  const flag = `--shard ${shard.index}/${shard.count}`;
  const chat = profile.chatStreams;
  if (chat.enabled && chat.participants > 0) {
    const participants = Math.min(chat.participants, fixtureParticipants ?? chat.participants);
    if (shard.count > participants) {
      const whose = participants < chat.participants ? 'the fixtures file holds' : `${profile.source} holds`;
      throw new ConfigError(
        `${flag}: ${shard.count} shards but ${whose} ${participants} participants; each shard holds every N-th participant, so use at most ${participants} shards`,
      );
    }
  }
  for (const { name, settings } of throughputLoads(profile)) {
    if (settings.model !== 'closed' || shard.count <= settings.connections) continue;
    throw new ConfigError(
      `${flag}: ${shard.count} shards but ${profile.source}'s ${name} has ${settings.connections} closed-model connections; each shard must open at least one, so use at most ${settings.connections} shards`,
    );
  }
  checkInFlightSplits(profile, shard.count, flag);
  return shard;
}
