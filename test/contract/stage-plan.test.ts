import { describe, expect, it } from 'vitest';
import { legacyPopulation, runPlanOf } from '../../src/contract/profile/run-plan.js';
import { planStages, type StageSpec, scaleStagesFrom, stageWindows, valueAt } from '../../src/contract/profile/stage-plan.js';
import { ConfigError } from '../../src/util/errors.js';
import { loadProfileText } from '../support/profile-text.js';

const s = (durationMs: number, target: number | 'hold', name?: string): StageSpec => ({ durationMs, target, name });

describe('planStages and valueAt', () => {
  const release = planStages([s(10_000, 1_000, 'warm'), s(20_000, 'hold', 'peak'), s(0, 5_000, 'spike'), s(5_000, 'hold'), s(10_000, 0, 'down')], 'stages');

  it('lays stages end to end, each from the value before it', () => {
    expect(release.map(({ name, startMs, endMs, from, to }) => [name, startMs, endMs, from, to])).toEqual([
      ['warm', 0, 10_000, 0, 1_000],
      ['peak', 10_000, 30_000, 1_000, 1_000],
      ['spike', 30_000, 30_000, 1_000, 5_000],
      ['stage-4', 30_000, 35_000, 5_000, 5_000],
      ['down', 35_000, 45_000, 5_000, 0],
    ]);
  });

  it.each([
    [0, 0],
    [2_500, 250],
    [10_000, 1_000],
    [29_999, 1_000],
    // The step takes effect at its instant.
    [30_000, 5_000],
    [34_000, 5_000],
    [40_000, 2_500],
    [45_000, 0],
    // After the last stage its target holds.
    [99_000, 0],
  ])('at %i ms the plan is %d', (ms, expected) => {
    expect(valueAt(release, ms)).toBeCloseTo(expected, 9);
  });

  it('starts from a given value (a rate that does not start at 0)', () => {
    const rate = planStages([s(10_000, 20)], 'rate', 10);
    expect(valueAt(rate, 0)).toBe(10);
    expect(valueAt(rate, 5_000)).toBe(15);
  });

  it.each([
    [[s(0, 10)], 'the stages must last longer than 0s in all'],
    [[s(1_000, -1)], 'stages[0].target: must be a number >= 0 or "hold"'],
    [[s(1_000, 5, 'a'), s(1_000, 5, 'a')], 'stage name "a" is used twice'],
    [[s(1_000, -1)], 'stages[0].target'],
    [[], 'stages must not be empty'],
  ])('refuses %j', (specs, message) => {
    expect(() => planStages(specs, 'stages')).toThrow(ConfigError);
    expect(() => planStages(specs, 'stages')).toThrow(message);
  });
});

describe('stageWindows', () => {
  it('lists named windows in time order and merges a name shared with the same window', () => {
    const chat = planStages([s(5_000, 10, 'up'), s(5_000, 'hold', 'peak')], 'c');
    const photo = planStages([s(5_000, 1), s(5_000, 'hold', 'peak')], 'p');
    // photo's unnamed first stage is no window (its default name is for display only).
    expect(stageWindows({ chatStreams: chat, photoUpload: photo }, 'x')).toEqual([
      { name: 'up', startMs: 0, endMs: 5_000 },
      { name: 'peak', startMs: 5_000, endMs: 10_000 },
    ]);
  });

  it('refuses a name that means two windows', () => {
    const chat = planStages([s(5_000, 10, 'peak')], 'c');
    const photo = planStages([s(1_000, 1), s(4_000, 'hold', 'peak')], 'p');
    expect(() => stageWindows({ chatStreams: chat, photoUpload: photo }, 'my.json')).toThrow(
      'my.json: stage "peak" is 0s..5s in chatStreams but 1s..5s in photoUpload; a shared name must mean the same window',
    );
  });
});

describe('stage windows of request kinds (docs/design.md §2.15)', () => {
  const kind = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    method: 'GET',
    path: '/participants/{userId}/chat_sessions/{sessionId}',
    ...extra,
  });

  it("name windows from a kind's own load and from the mix's stages", () => {
    const profile = loadProfileText({
      name: 'kind-windows',
      chatStreams: { enabled: false },
      requests: {
        stages: [
          { duration: '2s', target: 10, name: 'mixUp' },
          { duration: '3s', target: 'hold' },
        ],
        kinds: [
          kind('shared'),
          kind('own', {
            load: {
              stages: [
                { duration: '1s', target: 4 },
                { duration: '2s', target: 'hold', name: 'burst' },
              ],
            },
          }),
        ],
      },
    });
    expect(runPlanOf(profile).windows).toEqual([
      { name: 'mixUp', startMs: 0, endMs: 2_000 },
      { name: 'burst', startMs: 1_000, endMs: 3_000 },
    ]);
  });

  it("refuse a kind's stage that names another window than a built-in's stage of that name", () => {
    expect(() =>
      loadProfileText(
        {
          name: 'kind-clash',
          chatStreams: { stages: [{ duration: '3s', target: 2, name: 'peak' }] },
          requests: {
            kinds: [
              kind('own', {
                load: {
                  stages: [
                    { duration: '1s', target: 4 },
                    { duration: '2s', target: 'hold', name: 'peak' },
                  ],
                },
              }),
            ],
          },
        },
        'clash.json',
      ),
    ).toThrow(/stage "peak" is 0s\.\.3s in chatStreams but 1s\.\.3s in requests\.own; a shared name must mean the same window/);
  });
});

describe('profiles with stages', () => {
  it('derive the duration, the participants and the rates from the stages', () => {
    const profile = loadProfileText({
      name: 'shape',
      chatStreams: {
        stages: [
          { duration: '10s', target: 300, name: 'up' },
          { duration: '20s', target: 'hold', name: 'peak' },
          { duration: '5s', target: 0 },
        ],
      },
      photoUpload: { enabled: true, stages: [{ duration: '40s', target: 50 }] },
    });
    expect(profile.durationMs).toBe(40_000);
    expect(profile.chatStreams.participants).toBe(300);
    expect(profile.target.participants).toBe(300);
    const plan = runPlanOf(profile);
    expect(plan.scenarios.map((scenario) => [scenario.scenario, scenario.unit, scenario.explicit])).toEqual([
      ['chatStreams', 'participants', true],
      ['photoUpload', 'requests/s', true],
    ]);
    expect(plan.windows.map((window) => window.name)).toEqual(['up', 'peak']);
  });

  it.each([
    [{ duration: '1m', chatStreams: { stages: [{ duration: '10s', target: 1 }] } }, 'duration: remove it: with stages the run lasts'],
    [{ chatStreams: { participants: 5, stages: [{ duration: '10s', target: 1 }] } }, 'chatStreams.participants: remove it'],
    [{ tagLink: { ratePerSec: 5, stages: [{ duration: '10s', target: 1 }] } }, 'tagLink.ratePerSec: remove it'],
    [{ photoUpload: { model: 'closed', stages: [{ duration: '10s', target: 1 }] } }, 'photoUpload.stages: an arrival rate needs the open model'],
    [{ chatStreams: { stages: [{ duration: '10s', target: 'lots' }] } }, '/chatStreams/stages/0/target'],
  ])('refuse %j', (fields, message) => {
    expect(() => loadProfileText({ name: 'bad', ...fields })).toThrow(message);
  });

  it('without stages keep their ramp-and-hold as the plan', () => {
    expect(legacyPopulation(100, 50, 10_000)).toEqual([
      { name: 'ramp', named: false, startMs: 0, endMs: 2_000, from: 0, to: 100 },
      { name: 'hold', named: false, startMs: 2_000, endMs: 10_000, from: 100, to: 100 },
    ]);
    // A ramp longer than the run stops where the run ends.
    expect(legacyPopulation(100, 5, 10_000)).toEqual([{ name: 'ramp', named: false, startMs: 0, endMs: 10_000, from: 0, to: 50 }]);
  });
});

describe('scaleStagesFrom', () => {
  const plan = planStages([s(2_000, 100, 'ramp'), s(8_000, 'hold', 'hold')], 'stages');

  it('scales each value from each step on, splitting the stage a step falls inside and keeping its name', () => {
    const kept = scaleStagesFrom(plan, [
      { fromMs: 1_000, factor: 0.5 },
      { fromMs: 6_000, factor: 0.25 },
    ]);
    expect(kept.map(({ name, startMs, endMs, from, to }) => [name, startMs, endMs, from, to])).toEqual([
      ['ramp', 0, 1_000, 0, 50],
      ['ramp', 1_000, 2_000, 25, 50],
      ['hold', 2_000, 6_000, 50, 50],
      ['hold', 6_000, 10_000, 25, 25],
    ]);
    expect(valueAt(kept, 500)).toBe(valueAt(plan, 500));
    expect(valueAt(kept, 8_000)).toBe(valueAt(plan, 8_000) / 4);
  });

  it('a step at 0 scales the whole plan; no step leaves it as it was', () => {
    expect(scaleStagesFrom(plan, [{ fromMs: 0, factor: 0.5 }]).map((stage) => stage.to)).toEqual([50, 50]);
    expect(scaleStagesFrom(plan, [])).toEqual(plan);
  });
});
