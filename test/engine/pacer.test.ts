import { describe, expect, it } from 'vitest';
import { linearPacer } from '../../src/engine/pacer.js';

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
