/** The keep-alive wheel and the latency delay against real timers (with tolerances). */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { DelayScheduler } from '../../src/reference-service/faults/precise-delay.js';
import { KeepAliveWheel, WheelEntry } from '../../src/reference-service/streams/keepalive-wheel.js';
import { LatenessHistogram } from '../../src/reference-service/streams/lateness-histogram.js';
import { NumberHeap } from '../../src/reference-service/streams/number-heap.js';
import { median, sleep } from '../support/target-helpers.js';

describe('NumberHeap', () => {
  it('pops in ascending order', () => {
    const heap = new NumberHeap();
    const values = [5, 3, 9, 1, 1, 7, 2, 8, 0, 6];
    for (const v of values) heap.push(v);
    const out: number[] = [];
    while (heap.size > 0) out.push(heap.pop() as number);
    expect(out).toEqual([...values].sort((a, b) => a - b));
    expect(heap.pop()).toBeUndefined();
  });
});

describe('LatenessHistogram', () => {
  it('summarises lateness in 0.1 ms buckets; early counts as on time', () => {
    const h = new LatenessHistogram();
    expect(h.summary()).toEqual({ count: 0, p50: 0, p99: 0, p999: 0, max: 0 });
    for (let i = 0; i < 98; i += 1) h.record(0.05);
    h.record(-3);
    h.record(2.34);
    expect(h.summary()).toEqual({ count: 100, p50: 0.1, p99: 0.1, p999: 2.4, max: 2.34 });
    h.record(5_000);
    expect(h.summary().p999).toBe(1_000);
    expect(h.summary().max).toBe(5_000);
  });
});

describe('DelayScheduler', () => {
  it('never fires early; its median lateness is ~1 ms when idle and small when busy', async () => {
    const delays = new DelayScheduler();
    const lateness: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const started = performance.now();
      await new Promise<void>((resolve) =>
        delays.run(15, () => {
          lateness.push(performance.now() - started - 15);
          resolve();
        }),
      );
    }
    lateness.sort((a, b) => a - b);
    expect(lateness[0]).toBeGreaterThanOrEqual(0);
    // ~0.1-1 ms on an idle machine; the bound leaves room for other processes on the CPU.
    expect(lateness[10]).toBeLessThan(4);
    expect(delays.size).toBe(0);
  });

  it('cancelAll drops pending delays', async () => {
    const delays = new DelayScheduler();
    let fired = false;
    delays.run(10, () => {
      fired = true;
    });
    expect(delays.size).toBe(1);
    delays.cancelAll();
    await sleep(30);
    expect(fired).toBe(false);
    expect(delays.size).toBe(0);
  });
});

describe('KeepAliveWheel', () => {
  it('fires each entry on its own phase, every gap, without drift, and forgets removed entries', async () => {
    const wheel = new KeepAliveWheel();
    // Longer than a loaded machine's stalls: one longer than a gap restarts an entry's phase (by
    // design, keepalive-wheel.ts), which this absolute schedule would read as drift.
    const GAP = 200;
    const start = performance.now();
    const fired: number[][] = [[], [], []];
    const entries = [0, 1, 2].map((i) => new WheelEntry({ onKeepAlive: () => fired[i]?.push(performance.now() - start) }, GAP));
    for (const [i, entry] of entries.entries()) wheel.add(entry, start + GAP + i * 10);
    expect(wheel.size).toBe(3);
    await sleep(GAP * 4 + 25);
    wheel.remove(entries[1] as WheelEntry);
    const countAtRemoval = fired[1]?.length ?? 0;
    await sleep(GAP * 2);
    for (const [i, times] of fired.entries()) {
      if (i === 1) continue;
      // Lateness against the absolute schedule: never early, and it does not accumulate.
      const lateness = times.map((t, k) => t - (GAP + i * 10 + k * GAP));
      expect(Math.min(...lateness)).toBeGreaterThanOrEqual(-0.5);
      expect(median(lateness)).toBeLessThan(5);
      expect(times.length).toBeGreaterThanOrEqual(5);
    }
    expect(fired[1]).toHaveLength(countAtRemoval);
    wheel.remove(entries[0] as WheelEntry);
    wheel.remove(entries[2] as WheelEntry);
    expect(wheel.size).toBe(0);
  });

  it('keeps its schedule through a stall shorter than a gap: the firings after it are on time again', async () => {
    const wheel = new KeepAliveWheel();
    const GAP = 200;
    const start = performance.now();
    const fired: number[] = [];
    const entry = new WheelEntry({ onKeepAlive: () => fired.push(performance.now() - start) }, GAP);
    wheel.add(entry, start + GAP);
    // The loop is busy from 350 to 450 ms: the firing due at 400 comes about 50 ms late.
    setTimeout(
      () => {
        while (performance.now() - start < 450) {
          /* a stalled event loop */
        }
      },
      350 - (performance.now() - start),
    );
    await sleep(GAP * 6 + 25);
    wheel.remove(entry);
    const lateness = fired.map((t, k) => t - (k + 1) * GAP);
    expect(lateness[1], 'the stall delayed the firing due at 400 ms').toBeGreaterThanOrEqual(40);
    // An entry re-armed a gap after it fired would carry those 50 ms into every later firing.
    expect(median(lateness.slice(2)), lateness.map((ms) => ms.toFixed(1)).join(', ')).toBeLessThan(20);
  });

  it('lets a callback remove its own and other entries', async () => {
    const wheel = new KeepAliveWheel();
    const now = performance.now();
    const calls: string[] = [];
    const b = new WheelEntry({ onKeepAlive: () => calls.push('b') }, 20);
    const a = new WheelEntry(
      {
        onKeepAlive: () => {
          calls.push('a');
          wheel.remove(a);
          wheel.remove(b);
        },
      },
      20,
    );
    // Same due millisecond: one bucket.
    wheel.add(b, now + 20);
    wheel.add(a, now + 20);
    await sleep(80);
    expect(calls).toEqual(['a']);
    expect(wheel.size).toBe(0);
  });
});
