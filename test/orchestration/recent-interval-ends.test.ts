import { describe, expect, it } from 'vitest';
import { INTERVAL_ENDS_KEPT, RecentIntervalEnds } from '../../src/orchestration/recent-interval-ends.js';

describe('RecentIntervalEnds', () => {
  it('finds an interval’s end, or the last one before it when its index was skipped', () => {
    const ends = new RecentIntervalEnds();
    ends.note(0, 1.001);
    ends.note(1, 2.002);
    ends.note(3, 4.004);
    expect(ends.endMsOf(1)).toBeCloseTo(2_002, 6);
    expect(ends.endMsOf(2)).toBeCloseTo(2_002, 6);
    expect(ends.endMsOf(3)).toBeCloseTo(4_004, 6);
    expect(ends.endMsOf(-1)).toBe(0);
    expect(ends.endMsOf(null)).toBe(0);
  });

  it('holds only the newest intervals, however many a soak merges', () => {
    const ends = new RecentIntervalEnds();
    const soak = 8 * 3_600;
    for (let index = 0; index < soak; index++) ends.note(index, index + 1);
    expect(ends.size).toBe(INTERVAL_ENDS_KEPT);
    expect(ends.endMsOf(soak - 2)).toBe((soak - 1) * 1_000);
    expect(ends.endMsOf(soak - INTERVAL_ENDS_KEPT)).toBe((soak - INTERVAL_ENDS_KEPT + 1) * 1_000);
  });
});
