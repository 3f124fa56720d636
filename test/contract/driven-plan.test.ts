import { describe, expect, it } from 'vitest';
import { capStages, drivenPlan, integrateStages, plannedParticipantsAt } from '../../src/contract/profile/driven-plan.js';
import type { PlannedStage, RunPlan } from '../../src/contract/profile/stage-plan.js';

const stage = (name: string, startMs: number, endMs: number, from: number, to: number): PlannedStage => ({ name, named: true, startMs, endMs, from, to });

/** smoke: 300 participants at 150/s (a 2 s ramp), held to 30 s; photos at 20/s. */
const smoke: RunPlan = {
  durationMs: 30_000,
  scenarios: [
    { scenario: 'chatStreams', unit: 'participants', explicit: false, stages: [stage('ramp', 0, 2_000, 0, 300), stage('hold', 2_000, 30_000, 300, 300)] },
    { scenario: 'photoUpload', unit: 'requests/s', explicit: false, stages: [stage('rate', 0, 30_000, 20, 20)] },
  ],
  windows: [],
};

describe('capStages', () => {
  it.each([
    ['below the cap: unchanged', [stage('a', 0, 1_000, 0, 100)], 200, [stage('a', 0, 1_000, 0, 100)]],
    ['above the cap: held at it', [stage('a', 0, 1_000, 300, 300)], 200, [stage('a', 0, 1_000, 200, 200)]],
    [
      'a rise through the cap splits where it crosses',
      [stage('ramp', 0, 3_000, 0, 300)],
      200,
      [stage('ramp', 0, 2_000, 0, 200), stage('ramp', 2_000, 3_000, 200, 200)],
    ],
    ['a fall through the cap splits too', [stage('down', 0, 2_000, 300, 100)], 200, [stage('down', 0, 1_000, 200, 200), stage('down', 1_000, 2_000, 200, 100)]],
    ['a step above the cap', [stage('spike', 5_000, 5_000, 100, 800)], 200, [stage('spike', 5_000, 5_000, 100, 200), stage('spike', 5_000, 5_000, 200, 200)]],
  ])('%s', (_name, stages, cap, expected) => {
    expect(capStages(stages, cap)).toEqual(expected);
  });
});

describe('drivenPlan', () => {
  it('caps the population at the fixtures participants, leaving rates alone', () => {
    const plan = drivenPlan(smoke, { participants: 200, shard: null });
    expect(plan.scenarios[0]!.stages).toEqual([
      stage('ramp', 0, (200 / 300) * 2_000, 0, 200),
      stage('ramp', (200 / 300) * 2_000, 2_000, 200, 200),
      stage('hold', 2_000, 30_000, 200, 200),
    ]);
    expect(plan.scenarios[1]).toBe(smoke.scenarios[1]);
    expect(plannedParticipantsAt(plan, 20_000)).toBe(200);
  });

  it('gives a shard its share of every scenario', () => {
    const plan = drivenPlan(smoke, { participants: null, shard: { index: 0, count: 2 } });
    expect(plannedParticipantsAt(plan, 20_000)).toBe(150);
    expect(plan.scenarios[1]!.stages[0]).toMatchObject({ from: 10, to: 10 });
  });

  it('gives a shard the whole participants of its ranks when the shards do not divide the population, summing to the plan', () => {
    const thousand: RunPlan = {
      ...smoke,
      scenarios: [{ ...smoke.scenarios[0]!, stages: [stage('ramp', 0, 2_000, 0, 1_000), stage('hold', 2_000, 30_000, 1_000, 1_000)] }],
    };
    const shards = [0, 1, 2].map((index) => drivenPlan(thousand, { participants: null, shard: { index, count: 3 } }));
    // Ranks 0, 3, ..., 999 (334); 1, 4, ..., 997 (333); 2, 5, ..., 998 (333): what each shard's driver holds.
    expect(shards.map((plan) => plannedParticipantsAt(plan, 20_000))).toEqual([334, 333, 333]);
    for (const at of [0, 1_000, 2_000, 30_000])
      expect(shards.reduce((sum, plan) => sum + plannedParticipantsAt(plan, at), 0)).toBeCloseTo(plannedParticipantsAt(thousand, at), 9);
  });

  it('gives the fraction of a population that is no whole number to the shard of its next rank', () => {
    const half: RunPlan = { ...smoke, scenarios: [{ ...smoke.scenarios[0]!, stages: [stage('hold', 0, 30_000, 7.5, 7.5)] }] };
    // Ranks below 7.5 are 0..7: rank 7, the one online only in part, is shard 1's of 2.
    const shares = [0, 1].map((index) => plannedParticipantsAt(drivenPlan(half, { participants: null, shard: { index, count: 2 } }), 10_000));
    expect(shares).toEqual([4, 3.5]);
  });

  it('caps before it shares: a shard of a capped run holds its share of the cap', () => {
    expect(plannedParticipantsAt(drivenPlan(smoke, { participants: 200, shard: { index: 1, count: 2 } }), 20_000)).toBe(100);
  });

  it('is the plan itself when nothing caps or splits it', () => {
    expect(drivenPlan(smoke, { participants: null, shard: null }).scenarios).toEqual(smoke.scenarios);
  });
});

describe('integrateStages', () => {
  const chat = smoke.scenarios[0]!.stages;
  it.each([
    ['the ramp: a triangle', 0, 2_000, 300],
    ['the hold', 2_000, 12_000, 3_000],
    ['across the corner', 1_000, 3_000, 225 + 300],
    ['after the last stage its value holds', 30_000, 31_000, 300],
    ['an empty window', 5_000, 5_000, 0],
  ])('%s', (_name, fromMs, toMs, expected) => {
    expect(integrateStages(chat, fromMs, toMs)).toBeCloseTo(expected, 6);
  });

  it('a step counts from its instant on', () => {
    const spike = [stage('base', 0, 1_000, 10, 10), stage('spike', 1_000, 1_000, 10, 100), stage('hold', 1_000, 2_000, 100, 100)];
    expect(integrateStages(spike, 0, 2_000)).toBeCloseTo(10 + 100, 6);
  });
});
