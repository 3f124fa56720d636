import { describe, expect, it } from 'vitest';
import { linearPacer, stagedPacer } from '../../src/engine/pacer.js';

describe('linearPacer', () => {
  it('places constant-rate slots on an absolute schedule', () => {
    const pacer = linearPacer({ startRatePerSec: 10, endRatePerSec: 10, durationMs: 1_000 });
    expect(pacer.totalSlots).toBe(10);
    expect([0, 1, 2, 9].map((i) => pacer.slotTimeMs(i))).toEqual([0, 100, 200, 900]);
    expect(pacer.slotTimeMs(10)).toBe(Infinity);
  });

  it.each([
    [0, 1],
    [99, 1],
    [100, 2],
    [950, 10],
    [5_000, 10],
    [-1, 0],
  ])('constant 10/s: due by %d ms is %d', (elapsed, due) => {
    expect(linearPacer({ startRatePerSec: 10, endRatePerSec: 10, durationMs: 1_000 }).dueBy(elapsed)).toBe(due);
  });

  it('ramps linearly: 0 -> 100/s over 10 s sends 500 with slots getting closer', () => {
    const pacer = linearPacer({ startRatePerSec: 0, endRatePerSec: 100, durationMs: 10_000 });
    expect(pacer.totalSlots).toBe(500);
    const gaps = [1, 100, 499].map((i) => pacer.slotTimeMs(i) - pacer.slotTimeMs(i - 1));
    expect(gaps[0]).toBeGreaterThan(gaps[1]!);
    expect(gaps[1]).toBeGreaterThan(gaps[2]!);
    // Slot i and dueBy are inverses of each other.
    for (const i of [0, 1, 7, 250, 499]) {
      expect(pacer.dueBy(pacer.slotTimeMs(i))).toBe(i + 1);
    }
  });

  it('ramps down as well as up', () => {
    const pacer = linearPacer({ startRatePerSec: 100, endRatePerSec: 20, durationMs: 10_000 });
    expect(pacer.totalSlots).toBe(600);
    expect(pacer.slotTimeMs(599)).toBeLessThan(10_000);
  });

  it('has no slots at rate 0', () => {
    expect(linearPacer({ startRatePerSec: 0, endRatePerSec: 0, durationMs: 10_000 }).totalSlots).toBe(0);
  });
});

describe('stagedPacer', () => {
  // 0 -> 100/s over 2 s (100 arrivals), hold 100/s for 1 s (100), step to 300/s for 1 s (300), down to 0 over 2 s (300).
  const stages = [
    { startMs: 0, endMs: 2_000, from: 0, to: 100 },
    { startMs: 2_000, endMs: 3_000, from: 100, to: 100 },
    { startMs: 3_000, endMs: 3_000, from: 100, to: 300 },
    { startMs: 3_000, endMs: 4_000, from: 300, to: 300 },
    { startMs: 4_000, endMs: 6_000, from: 300, to: 0 },
  ];
  const pacer = stagedPacer(stages, 6_000);

  it('schedules each stage its own arrivals (within one slot per stage)', () => {
    expect(Math.abs(pacer.totalSlots - 800)).toBeLessThanOrEqual(4);
    const inWindow = (fromMs: number, toMs: number): number => pacer.dueBy(toMs - 1e-6) - pacer.dueBy(fromMs - 1e-6);
    expect(Math.abs(inWindow(0, 2_000) - 100)).toBeLessThanOrEqual(1);
    expect(Math.abs(inWindow(2_000, 3_000) - 100)).toBeLessThanOrEqual(1);
    expect(Math.abs(inWindow(3_000, 4_000) - 300)).toBeLessThanOrEqual(1);
    expect(Math.abs(inWindow(4_000, 6_000) - 300)).toBeLessThanOrEqual(1);
  });

  it('keeps slot times increasing and consistent with dueBy', () => {
    let previous = -1;
    for (let i = 0; i < pacer.totalSlots; i++) {
      const t = pacer.slotTimeMs(i);
      expect(t).toBeGreaterThanOrEqual(previous);
      expect(pacer.dueBy(t)).toBeGreaterThan(i);
      previous = t;
    }
    expect(pacer.slotTimeMs(pacer.totalSlots)).toBe(Infinity);
  });

  it('holds the last rate when the run outlasts the stages, and stops at the run end', () => {
    const held = stagedPacer([{ startMs: 0, endMs: 1_000, from: 50, to: 50 }], 3_000);
    expect(Math.abs(held.totalSlots - 150)).toBeLessThanOrEqual(2);
    const cut = stagedPacer([{ startMs: 0, endMs: 4_000, from: 0, to: 400 }], 2_000);
    // Half way up the ramp: 0 -> 200/s over 2 s.
    expect(Math.abs(cut.totalSlots - 200)).toBeLessThanOrEqual(1);
  });
});
