import { describe, expect, it } from 'vitest';
import { judgeGoals } from '../../bench/lib/peers-table.js';

const cpu = (us: number) => ({ cpuUsPerRequest: us });

// Three repetitions at 500/s. The tools' medians come from different repetitions (coachbench's
// from the third, the floor's from the first) and would say 340 / 260 = 1.31; the repetitions
// say 1.15, 1.16 and 1.36.
const rows = [
  { tool: 'coachbench', repetition: 1, cpuUsPerRequest: 300 },
  { tool: 'floor', repetition: 1, cpuUsPerRequest: 260 },
  { tool: 'autocannon', repetition: 1, cpuUsPerRequest: 120 },
  { tool: 'floor', repetition: 2, cpuUsPerRequest: 310 },
  { tool: 'coachbench', repetition: 2, cpuUsPerRequest: 360 },
  { tool: 'autocannon', repetition: 2, cpuUsPerRequest: 150 },
  { tool: 'coachbench', repetition: 3, cpuUsPerRequest: 340 },
  { tool: 'floor', repetition: 3, cpuUsPerRequest: 250 },
  { tool: 'autocannon', repetition: 3, failed: 'exited 1' },
];
const medians = { coachbench: cpu(340), floor: cpu(260), autocannon: cpu(135) };

const goal = (name: string) => {
  const open = { rates: [500], byRate: { 500: { rows, medians } } };
  return judgeGoals({ open }).find((g) => g.goal === name);
};

describe('the open-model goals, judged by the ratios of the repetitions', () => {
  it('takes the median of each repetition ratio against the floor, where it lies and the medians beside it', () => {
    expect(goal("open 500/s: coachbench CPU per request / the floor's")).toEqual({
      goal: "open 500/s: coachbench CPU per request / the floor's",
      value: 1.16,
      limit: '≤ 1.2',
      verdict: 'within its spread',
      spread: { low: 1.15, high: 1.36, confidence: 0.75 },
      beside: 'each repetition: 1.15, 1.16, 1.36; by medians: 1.31',
    });
  });

  it('pairs only the repetitions in which both tools answered', () => {
    // Repetition 3's autocannon failed: 2.5 and 2.4 remain, and the floor's 2.17 and 2.07.
    expect(goal("open 500/s: coachbench CPU per request / autocannon's")).toMatchObject({
      value: 2.45,
      verdict: 'not met',
      beside: "floor (bare undici loop): 2.12 × autocannon's",
    });
  });

  it('calls a goal met only when every repetition that bounds its median is within the limit', () => {
    const cheaper = rows.map((row) => (row.tool === 'coachbench' && row.repetition === 2 ? { ...row, cpuUsPerRequest: 340 } : row));
    const open = { rates: [500], byRate: { 500: { rows: cheaper, medians } } };
    // Repetition 3's 1.36 bounds the median still: 1.15, 1.1, 1.36.
    expect(judgeGoals({ open }).find((g) => g.goal.endsWith("the floor's"))?.verdict).toBe('within its spread');
    const withinAll = cheaper.map((row) => (row.tool === 'coachbench' && row.repetition === 3 ? { ...row, cpuUsPerRequest: 290 } : row));
    const met = judgeGoals({ open: { rates: [500], byRate: { 500: { rows: withinAll, medians } } } }).find((g) => g.goal.endsWith("the floor's"));
    expect(met).toMatchObject({ value: 1.15, verdict: 'met', spread: { low: 1.1, high: 1.16 } });
  });

  it('falls back to the ratio of the medians when no repetition ran both tools', () => {
    const open = { rates: [500], byRate: { 500: { rows: [], medians } } };
    const [againstAutocannon] = judgeGoals({ open });
    expect(againstAutocannon?.value).toBe(2.52);
  });
});
