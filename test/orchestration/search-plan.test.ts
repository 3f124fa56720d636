import { describe, expect, it } from 'vitest';
import { knee, nextLoad, parseSearch, type SearchSettings, type StepResult } from '../../src/orchestration/capacity/search-plan.js';
import { ConfigError } from '../../src/util/errors.js';

const settings: SearchSettings = {
  variable: 'chatStreams.participants',
  start: 100,
  factor: 2,
  max: 1_600,
  stepDurationMs: 1_000,
  refineSteps: 2,
  slos: ['chatStreams.eventLatencyMs.p99 < 100'],
};

/** Plays a search against a system that holds up to `capacity` and returns the loads tried. */
function play(capacity: number, s: SearchSettings = settings): StepResult[] {
  const steps: StepResult[] = [];
  for (let load = nextLoad(s, steps); load !== null; load = nextLoad(s, steps)) steps.push({ load, pass: load <= capacity });
  return steps;
}

describe('capacity search plan', () => {
  it('steps up geometrically, then bisects between the last good and first bad load', () => {
    const steps = play(500);
    expect(steps.map((s) => s.load)).toEqual([100, 200, 400, 800, 600, 500]);
    expect(knee(steps)).toBe(500);
  });

  it('stops at max when nothing breaks', () => {
    const steps = play(1e9);
    expect(steps.map((s) => s.load)).toEqual([100, 200, 400, 800, 1_600]);
    expect(knee(steps)).toBe(1_600);
  });

  it('reports no knee when the starting load already breaks', () => {
    const steps = play(50);
    expect(steps.map((s) => s.load)).toEqual([100]);
    expect(knee(steps)).toBeNull();
  });

  it('runs no refinement with refineSteps 0', () => {
    expect(play(500, { ...settings, refineSteps: 0 }).map((s) => s.load)).toEqual([100, 200, 400, 800]);
  });

  it('validates the search block, collecting every problem', () => {
    expect(() => parseSearch({ variable: 'chatStreams.nope', start: 0, slos: [] }, 'p.json')).toThrow(ConfigError);
    expect(() => parseSearch({ variable: 'chatStreams.nope', start: 0, slos: [] }, 'p.json')).toThrow(/variable.*slos.*start.*max/);
    expect(() => parseSearch({ variable: 'chatStreams.participants', start: 10, max: 100, slos: ['chatStreams.bogus < 1'] }, 'p.json')).toThrow(/bogus/);
  });

  it("refuses a max beyond the variable's own maximum, and a search that could outlast 7d", () => {
    const slos = ['chatStreams.dropped == 0'];
    expect(() => parseSearch({ variable: 'chatStreams.messageRatePerSec', start: 1, max: 1e6, slos }, 'p.json')).toThrow(
      'p.json.search.max: 1000000 is more than chatStreams.messageRatePerSec may be (100000)',
    );
    expect(() => parseSearch({ variable: 'chatStreams.participants', start: 1, max: 1e6, factor: 1.05, stepDuration: '1h', slos }, 'p.json')).toThrow(
      /^p\.json\.search: up to 287 steps of 3600s could last longer than the maximum, 7d/,
    );
    expect(parseSearch({ variable: 'chatStreams.participants', start: 250, max: 9_000, stepDuration: '20s', slos }, 'p.json').max).toBe(9_000);
  });
});
