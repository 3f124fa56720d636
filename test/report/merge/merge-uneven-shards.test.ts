/**
 * Five real shards of a run of 24 participants, which five does not divide: each shard's
 * report.json `plan` holds the whole participants of its ranks (5, 5, 5, 5, 4), the figure
 * `plan --shard I/5` shows and its driver held, and the merge plans the whole run again,
 * exactly as `plan` does without --shard (docs/design.md §2.11).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioPlan } from '../../../src/contract/profile/stage-plan.js';
import type { Report } from '../../../src/contract/report.js';
import { mergeReports } from '../../../src/report/merge/merge-reports.js';
import { runCli } from '../../support/run-cli.js';
import { type ShardBench, type ShardRun, shardBench } from '../../support/shard-runs.js';

const COUNT = 5;
let bench: ShardBench;
let shards: ShardRun[];
let merged: Report;

beforeAll(async () => {
  bench = await shardBench();
  const target = await bench.target();
  shards = await Promise.all(Array.from({ length: COUNT }, (_, i) => bench.shard(target.url, i, COUNT, 'uneven')));
  merged = mergeReports(
    shards.map((s) => s.report),
    shards.map((s) => s.path),
  );
}, 120_000);
afterAll(() => bench.close());

const chatStages = (scenarios: readonly ScenarioPlan[]) => scenarios.find((s) => s.scenario === 'chatStreams')!.stages;

describe(`coachbench merge of ${COUNT} shards of 24 participants`, () => {
  it("plans in each shard's report.json what plan --shard shows and the shard held: the whole participants of its ranks", async () => {
    for (const [i, s] of shards.entries()) {
      const { shard } = JSON.parse((await runCli(['plan', bench.profilePath, '--json', '--shard', `${i}/${COUNT}`])).stdout);
      expect(s.report.plan!.scenarios).toEqual(shard.scenarios);
      expect(chatStages(s.report.plan!.scenarios).at(-1)!.to).toBe(s.report.scenarios.chatStreams!.participants);
    }
    expect(shards.map((s) => chatStages(s.report.plan!.scenarios).at(-1)!.to)).toEqual([5, 5, 5, 5, 4]);
  });

  it('plans the whole run in the merged report, as plan without --shard does', async () => {
    const whole = JSON.parse((await runCli(['plan', bench.profilePath, '--json'])).stdout);
    expect(merged.plan!.scenarios).toEqual(whole.scenarios);
    // And the shards' plans add up to it, stage by stage.
    for (const [i, stage] of chatStages(merged.plan!.scenarios).entries()) {
      expect(shards.reduce((sum, s) => sum + chatStages(s.report.plan!.scenarios)[i]!.to, 0)).toBeCloseTo(stage.to, 9);
    }
    expect(merged.scenarios.chatStreams!.participants).toBe(24);
  });
});
