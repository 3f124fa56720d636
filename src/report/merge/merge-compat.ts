/**
 * Decides whether a set of shard reports can merge into one honest report, and what the
 * merge must carry over. Every refusal is collected first and thrown once (exit 2).
 */
import type { KeepAliveExpectation } from '../../contract/keep-alive.js';
import type { Profile } from '../../contract/profile/profile.js';
import type { Report, TargetInfo } from '../../contract/report.js';
import { ProblemList } from '../../util/errors.js';

/** One shard report and where it came from (a path, for messages and `mergedFrom`). */
export interface ShardSource {
  report: Report;
  source: string;
}

/** What a mergeable set agrees on, and what the merged report must say about it. */
export interface MergePlan {
  /** The shards, ordered by shard index. */
  shards: ShardSource[];
  shardCount: number;
  /** Shard indices of the run that no report covers. */
  missing: number[];
  profile: Profile;
  target: TargetInfo;
  keepAlive: KeepAliveExpectation;
  /** Every threshold any shard evaluated, first appearance first. */
  thresholds: string[];
  /** Differences worth a reader's attention that do not stop the merge. */
  warnings: string[];
}

const majorOf = (version: string): string => version.split('.')[0] ?? '';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `shard 1/4` in the --shard I/N spelling (0-based), or the file when not a shard. */
export const shardLabel = (shard: ShardSource): string => (shard.report.shard ? `shard ${shard.report.shard.index}/${shard.report.shard.count}` : shard.source);

/**
 * The first path at which two JSON values differ, or null when equal. Key order is the
 * only thing ignored: a profile resolved from the same file on two machines is equal.
 */
export function firstDifference(a: unknown, b: unknown, path = ''): string | null {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path || '.'} (${a.length} vs ${b.length} items)`;
    for (let i = 0; i < a.length; i += 1) {
      const found = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const key of keys) {
      const found = firstDifference(a[key], b[key], path ? `${path}.${key}` : key);
      if (found) return found;
    }
    return null;
  }
  return Object.is(a, b) ? null : `${path || '.'} (${JSON.stringify(a) ?? 'absent'} vs ${JSON.stringify(b) ?? 'absent'})`;
}

/*
 * A report's profile is plain JSON; buildReport reads it as a Profile. The schema only
 * requires a name, so check the parts the summaries read rather than crash on a hand-made file.
 */
function asProfile(report: Report, source: string, problems: ProblemList): Profile | null {
  const profile = report.profile as Record<string, unknown>;
  const chat = profile.chatStreams;
  const generator = profile.generator;
  const ok =
    isRecord(chat) &&
    typeof chat.enabled === 'boolean' &&
    typeof chat.participants === 'number' &&
    isRecord(generator) &&
    typeof generator.maxEventLoopDelayP99Ms === 'number' &&
    Array.isArray(profile.thresholds);
  if (!ok) problems.add(source, 'profile is not a resolved coachbench profile (chatStreams, generator, thresholds missing)');
  return ok ? (profile as unknown as Profile) : null;
}

function checkShards(sources: readonly ShardSource[], problems: ProblemList): number {
  const unsharded = sources.filter((s) => s.report.shard === null);
  for (const s of unsharded) problems.add(s.source, 'is not a shard report (run each part with --shard I/N)');
  const sharded = sources.filter((s) => s.report.shard !== null);
  const first = sharded[0];
  if (!first) return 0;
  const count = first.report.shard!.count;
  const seen = new Map<number, string>();
  for (const s of sharded) {
    const { index, count: theirs } = s.report.shard!;
    if (theirs !== count)
      problems.add(s.source, `is shard ${index}/${theirs} but ${first.source} is shard ${first.report.shard!.index}/${count}: shard counts differ`);
    const earlier = seen.get(index);
    if (earlier !== undefined) problems.add(s.source, `shard ${index}/${theirs} overlaps ${earlier} (the same participants would count twice)`);
    else seen.set(index, s.source);
  }
  return count;
}

function keepAliveOf(report: Report): KeepAliveExpectation {
  const chat = report.scenarios.chatStreams;
  return { intervalMs: chat?.expectedKeepAliveMs ?? 0, toleranceMs: chat?.keepAliveToleranceMs ?? 0 };
}

/*
 * External targets may differ in URL and still be one service (an ingress per zone), so a
 * URL difference warns; embedded and external shards measured different systems: refused.
 */
function mergedTarget(shards: readonly ShardSource[], problems: ProblemList, warnings: string[]): TargetInfo {
  const first = shards[0]!;
  for (const s of shards) {
    if (s.report.target.embedded !== first.report.target.embedded) {
      problems.add(s.source, `${s.report.target.embedded ? 'ran its own embedded target' : 'drove an external target'} but ${first.source} did not`);
    }
  }
  const urls = [...new Set(shards.map((s) => s.report.target.url))];
  if (first.report.target.embedded) {
    if (shards.length > 1) warnings.push(`each shard ran its own embedded reference target: merged figures describe ${shards.length} separate targets`);
  } else if (urls.length > 1) {
    const byUrl = urls.map(
      (url) =>
        `${url} (${shards
          .filter((s) => s.report.target.url === url)
          .map(shardLabel)
          .join(', ')})`,
    );
    warnings.push(`shards drove different target URLs, merged as one service: ${byUrl.join('; ')}`);
  }
  return { ...first.report.target, url: urls.join(', ') };
}

/**
 * Checks that `sources` are shards of one run (same profile, same shard count, no shard
 * twice, same report major version, same KEEP_ALIVE expectation, all embedded or all
 * external, no capacity search) and returns the merge plan. Throws one ConfigError listing every problem.
 */
export function planMerge(sources: readonly ShardSource[]): MergePlan {
  const problems = new ProblemList();
  if (sources.length === 0) problems.add('merge', 'no shard reports given');
  problems.throwIfAny('cannot merge');
  const shards = [...sources].sort((a, b) => (a.report.shard?.index ?? -1) - (b.report.shard?.index ?? -1));
  const first = shards[0]!;
  const warnings: string[] = [];

  for (const s of shards) {
    if (majorOf(s.report.schemaVersion) !== majorOf(first.report.schemaVersion)) {
      problems.add(s.source, `schemaVersion ${s.report.schemaVersion} cannot merge with ${first.report.schemaVersion} of ${first.source}`);
    }
  }
  // Each shard's search stepped and bisected on its own results, so the steps do not line up.
  for (const s of shards) {
    if (s.report.capacity)
      problems.add(s.source, 'is a capacity search: shards search on their own, so their steps cannot merge (search on one machine, with --workers)');
  }
  const shardCount = checkShards(shards, problems);
  const profile = asProfile(first.report, first.source, problems);
  for (const s of shards.slice(1)) {
    const difference = firstDifference(first.report.profile, s.report.profile);
    if (difference) problems.add(s.source, `profile differs from ${first.source} at ${difference}`);
  }
  const keepAlive = keepAliveOf(first.report);
  for (const s of shards.slice(1)) {
    const theirs = keepAliveOf(s.report);
    if (theirs.intervalMs !== keepAlive.intervalMs || theirs.toleranceMs !== keepAlive.toleranceMs) {
      problems.add(
        s.source,
        `held streams to KEEP_ALIVE ${theirs.intervalMs} ± ${theirs.toleranceMs} ms, ${first.source} to ${keepAlive.intervalMs} ± ${keepAlive.toleranceMs} ms (check --expect-keepalive)`,
      );
    }
  }
  const target = mergedTarget(shards, problems, warnings);
  problems.throwIfAny('cannot merge');

  const versions = [...new Set(shards.map((s) => s.report.tool.version))];
  if (versions.length > 1) warnings.push(`shards were measured by different coachbench versions: ${versions.join(', ')}`);
  const thresholdSets = shards.map((s) => s.report.thresholds.map((t) => t.expression));
  const thresholds = [...new Set(thresholdSets.flat())];
  if (thresholdSets.some((set) => set.length !== thresholds.length)) {
    warnings.push(`shards were given different --threshold flags; every one of them is evaluated on the merged data: ${thresholds.join('; ')}`);
  }
  const present = new Set(shards.map((s) => s.report.shard!.index));
  const missing = Array.from({ length: shardCount }, (_, i) => i).filter((i) => !present.has(i));
  return {
    shards,
    shardCount,
    missing,
    profile: profile!,
    target,
    keepAlive,
    thresholds,
    warnings,
  };
}
