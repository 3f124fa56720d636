/**
 * Runs shards of one small profile in-process against external reference targets, the way
 * N machines would (`run --target URL --fixtures FILE --shard I/N`), with an empty env:
 * the API key travels in the fixtures file.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Report } from '../../src/contract/report.js';
import { executeRun } from '../../src/orchestration/execute-run.js';
import { resolveRunConfig } from '../../src/orchestration/run-config.js';
import { startTarget } from '../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { quickProfile } from './profiles.js';

export const KEEPALIVE = '500ms';

/*
 * Two short seconds, 24 participants (6 per shard of 4), messages and churn on (rates are
 * totals for the run: each shard drives its share). The merge is
 * under test, not the target's timing: the machine may be busy (several shards and targets
 * share this process), so the timing checks get wide bounds and stay green.
 */
export const shardProfile = (): Record<string, unknown> =>
  quickProfile({
    name: 'merge-test',
    duration: '2s',
    keepAliveTolerance: '100%',
    target: { keepAlive: KEEPALIVE, participants: 30, sessionsPerParticipant: 2 },
    chatStreams: { participants: 24, rampPerSec: 200, switchEvery: '1s', messageRatePerSec: 40, churnRatePerSec: 8 },
    generator: { maxEventLoopDelayP99: '2s' },
    thresholds: ['chatStreams.opened > 0'],
  });

export interface ShardRun {
  report: Report;
  /** The shard's report.json on disk. */
  path: string;
  exitCode: number;
}

export interface ShardBench {
  dir: string;
  profilePath: string;
  fixturesPath: string;
  /** Starts a reference target seeded like every other one of this bench (same fixtures). */
  target(faults?: string[]): Promise<RunningTarget>;
  /** Runs shard `index`/`count` against `url`; resolves with its report. */
  shard(url: string, index: number, count: number, label?: string): Promise<ShardRun>;
  close(): Promise<void>;
}

export async function shardBench(): Promise<ShardBench> {
  const dir = await mkdtemp(join(tmpdir(), 'coachbench-merge-'));
  const profilePath = join(dir, 'profile.json');
  const fixturesPath = join(dir, 'fixtures.json');
  await writeFile(profilePath, JSON.stringify(shardProfile()));
  const targets: RunningTarget[] = [];
  const target = async (faults: string[] = []): Promise<RunningTarget> => {
    const running = await startTarget({ participants: 30, sessionsPerParticipant: 2, keepAliveMs: 500, faults });
    targets.push(running);
    // The same seed gives every target the same participants, tokens and key.
    await writeFile(fixturesPath, JSON.stringify(running.fixtures));
    return running;
  };
  const shard = async (url: string, index: number, count: number, label = 'shard'): Promise<ShardRun> => {
    const out = join(dir, `${label}-${index}-of-${count}`);
    const config = await resolveRunConfig(
      { profile: profilePath, target: url, fixtures: fixturesPath, shard: `${index}/${count}`, expectKeepalive: KEEPALIVE, out, quiet: true },
      {},
    );
    const { report, exitCode } = await executeRun(config);
    return { report, exitCode, path: join(out, 'report.json') };
  };
  const close = async (): Promise<void> => {
    await Promise.all(targets.map((t) => t.close()));
  };
  return { dir, profilePath, fixturesPath, target, shard, close };
}
