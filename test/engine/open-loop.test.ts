import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { runOpenLoop } from '../../src/engine/open-loop.js';
import { linearPacer } from '../../src/engine/pacer.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('runOpenLoop', () => {
  it('starts every slot of the schedule and passes absolute intended times', async () => {
    const pacer = linearPacer({ startRatePerSec: 200, endRatePerSec: 200, durationMs: 250 });
    const startMs = performance.now();
    const intended: number[] = [];
    const result = await runOpenLoop({
      pacer,
      maxInFlight: 100,
      latenessMs: 1_000,
      startMs,
      signal: new AbortController().signal,
      fire: async (slot, intendedMs) => {
        intended[slot] = intendedMs - startMs;
      },
    });
    expect(result).toEqual({ started: 50, late: 0, dropped: 0 });
    expect(intended[10]).toBeCloseTo(50, 6);
  });

  it('wakes once per slot it sends, not first too early and again to send it', async () => {
    // 500/s for 1 s: slots 2 ms apart, so every wait is fractional. A wake-up that finds no slot
    // due is pure cost (a timer wake-up is a large share of the open model's CPU per request).
    const pacer = linearPacer({ startRatePerSec: 500, endRatePerSec: 500, durationMs: 1_000 });
    let empty = 0;
    let lastDue = 0;
    const counted = {
      ...pacer,
      slotTimeMs: (i: number) => pacer.slotTimeMs(i),
      dueBy(elapsedMs: number): number {
        const due = pacer.dueBy(elapsedMs);
        if (due === lastDue) empty++;
        lastDue = due;
        return due;
      },
    };
    const result = await runOpenLoop({
      pacer: counted,
      maxInFlight: 100,
      latenessMs: 1_000,
      startMs: performance.now(),
      signal: new AbortController().signal,
      fire: async () => undefined,
    });
    expect(result.started).toBe(500);
    // Rounding a fractional wait down woke the loop early for about half the slots.
    expect(empty).toBeLessThanOrEqual(25);
  });

  it('drops and counts slots when every in-flight place is taken, without slipping the schedule', async () => {
    const pacer = linearPacer({ startRatePerSec: 100, endRatePerSec: 100, durationMs: 300 });
    const result = await runOpenLoop({
      pacer,
      maxInFlight: 2,
      latenessMs: 1_000,
      startMs: performance.now(),
      signal: new AbortController().signal,
      fire: () => sleep(120),
    });
    expect(result.started + result.dropped).toBe(30);
    expect(result.dropped).toBeGreaterThan(20);
  });

  it('counts late slots when the loop is blocked, and still starts them', async () => {
    const pacer = linearPacer({ startRatePerSec: 100, endRatePerSec: 100, durationMs: 200 });
    const startMs = performance.now();
    const blockUntil = startMs + 100;
    while (performance.now() < blockUntil) {
      /* simulate a saturated generator */
    }
    const result = await runOpenLoop({
      pacer,
      maxInFlight: 100,
      latenessMs: 20,
      startMs,
      signal: new AbortController().signal,
      fire: async () => undefined,
    });
    expect(result.started).toBe(20);
    expect(result.late).toBeGreaterThanOrEqual(8);
  });

  it('stops on abort and waits for in-flight slots', async () => {
    const pacer = linearPacer({ startRatePerSec: 100, endRatePerSec: 100, durationMs: 10_000 });
    const controller = new AbortController();
    let finished = 0;
    setTimeout(() => controller.abort(), 100);
    const result = await runOpenLoop({
      pacer,
      maxInFlight: 100,
      latenessMs: 1_000,
      startMs: performance.now(),
      signal: controller.signal,
      fire: async () => {
        await sleep(50);
        finished++;
      },
    });
    expect(result.started).toBeGreaterThan(5);
    expect(result.started).toBeLessThan(20);
    expect(finished).toBe(result.started);
  });
});
