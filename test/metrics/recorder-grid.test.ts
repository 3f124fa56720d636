/**
 * A Recorder's intervals keep to a grid from the run clock's zero (recorder.ts): a busy loop
 * makes ticks late, never makes the grid drift, so loops sharing a zero (a main loop and its
 * request thread) still close interval n together at the end of a long run; a stall that
 * swallows boundaries closes one long interval and skips the indices it swallowed.
 */
import { describe, expect, it } from 'vitest';
import type { MetricSet } from '../../src/metrics/metric-set.js';
import { Recorder } from '../../src/metrics/recorder.js';

interface Closed {
  index: number;
  startSec: number;
  endSec: number;
}

const busyFor = (ms: number): void => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* the loop is busy */
  }
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function recording(intervalMs: number, zeroMs = performance.now()): { recorder: Recorder; closed: Closed[] } {
  const closed: Closed[] = [];
  const recorder = new Recorder(
    intervalMs,
    (_set: MetricSet, startSec, endSec, index) => closed.push({ index, startSec, endSec }),
    undefined,
    'process',
    zeroMs,
  );
  return { recorder, closed };
}

describe('a Recorder on an idle loop', () => {
  it('never closes an interval before its boundary (timers may fire a fraction of a millisecond early)', async () => {
    const { recorder, closed } = recording(20);
    recorder.start();
    // 40 ticks to judge: a loaded machine's stalls swallow some boundaries, so wait for the
    // ticks rather than for a time (at most 5 s).
    const deadline = performance.now() + 5_000;
    while (closed.length < 40 && performance.now() < deadline) await sleep(100);
    recorder.stop();
    const whole = closed.slice(0, -1);
    expect(whole.length).toBeGreaterThanOrEqual(39);
    for (const { index, endSec } of whole) expect(endSec * 1_000, `interval ${index}`).toBeGreaterThanOrEqual((index + 1) * 20);
  });
});

describe('a Recorder on a busy loop', () => {
  it('ticks late but never drifts: interval n ends as late as a timer set for (n + 1) × length, however many came before', async () => {
    const zeroMs = performance.now();
    const { recorder, closed } = recording(50, zeroMs);
    // The loop's own lateness at each boundary, as a reference: one timer per boundary, each
    // set once from the zero, so none of them can carry another's lateness on. A loaded
    // machine makes them late as it makes the recorder late; only a drift makes the recorder later.
    const reference = new Map<number, number>();
    const references = Array.from({ length: 40 }, (_, i) =>
      setTimeout(() => reference.set(i + 1, performance.now() - zeroMs), zeroMs + (i + 1) * 50 - performance.now()),
    );
    recorder.start();
    // Busy 12 ms of every 20: each tick is late by up to 12 ms, and a re-armed timer would carry it on.
    const blocker = setInterval(() => busyFor(12), 20);
    await sleep(2_000);
    clearInterval(blocker);
    for (const timer of references) clearTimeout(timer);
    const stopMs = performance.now() - zeroMs;
    recorder.stop();
    const whole = closed.slice(0, -1);
    // Judged where the reference fired too: a boundary whose timer a stall swallowed says nothing.
    const judged = whole.filter(({ index }) => reference.has(index + 1));
    expect(judged.length).toBeGreaterThanOrEqual(12);
    const behindReference = judged.map(({ index, endSec }) => endSec * 1_000 - reference.get(index + 1)!);
    // A drift carries each tick's lateness on to the next, so most ticks would end well after
    // their reference; on the grid most end with it, and a few a busy spell of the blocker after.
    const sorted = [...behindReference].sort((a, b) => a - b);
    const shown = `ms behind the reference: ${behindReference.map(Math.round).join(' ')}`;
    expect(sorted[Math.floor(sorted.length / 2)], shown).toBeLessThan(5);
    // Between two timers due together a busy spell may run, and on a loaded machine a pause of
    // the whole process now and then: a quarter of the ticks, never, where a drift puts most.
    expect(sorted[Math.floor(sorted.length * 0.75)], shown).toBeLessThan(25);
    // The grid's index follows the clock, stalls or not: the interval closed at stop is the one
    // whose boundary was ahead (or the one before it, when the stop came before its late tick).
    expect(closed.at(-1)!.index).toBeGreaterThanOrEqual(Math.floor(stopMs / 50) - 1);
    // Each interval starts where the one before ended: nothing is lost between them.
    for (let i = 1; i < closed.length; i++) expect(closed[i]!.startSec).toBe(closed[i - 1]!.endSec);
  });

  it('closes one long interval over a stall and skips the indices it swallowed', async () => {
    const zeroMs = performance.now();
    const { recorder, closed } = recording(100, zeroMs);
    recorder.start();
    await sleep(150);
    // Where the stall lies on the run clock: a loaded machine moves it, so it is measured, not assumed.
    const stallStartMs = performance.now() - zeroMs;
    busyFor(330);
    const stallEndMs = performance.now() - zeroMs;
    await sleep(200);
    recorder.stop();
    const stalled = closed.find((interval) => interval.startSec * 1_000 <= stallStartMs && interval.endSec * 1_000 >= stallEndMs)!;
    expect(stalled, 'one interval holds the whole stall').toBeDefined();
    const next = closed[closed.indexOf(stalled) + 1]!;
    // The next index is the interval whose boundary was still ahead when the stall ended ...
    expect(next.index).toBe(Math.floor((stalled.endSec * 1_000) / 100));
    // ... so the boundaries the stall swallowed (330 ms holds at least 3, the stalled interval's own the first) were skipped.
    expect(next.index - stalled.index).toBeGreaterThanOrEqual(3);
    const indices = closed.map((interval) => interval.index);
    expect(indices).toEqual([...indices].sort((a, b) => a - b));
    expect(new Set(indices).size).toBe(indices.length);
  });

  it('keeps to the grid of a zero read earlier on another loop (a thread told to go late)', async () => {
    // The zero 400 ms before the recorder starts: its first boundary is 100 ms after the start,
    // where one counted from the start would be 500 ms after it.
    const zeroMs = performance.now() - 400;
    const { recorder, closed } = recording(500, zeroMs);
    let referenceMs = Number.NaN;
    setTimeout(
      () => {
        referenceMs = performance.now() - zeroMs;
      },
      zeroMs + 500 - performance.now(),
    );
    recorder.start();
    await sleep(350);
    recorder.stop();
    expect(closed[0]).toMatchObject({ index: 0, startSec: 0 });
    // Node's timers may fire up to a millisecond early (ms rounding).
    expect(closed[0]!.endSec).toBeGreaterThanOrEqual(0.498);
    // As late as a timer due at the same boundary, however loaded the machine: far from 400 ms later.
    expect(closed[0]!.endSec * 1_000 - referenceMs).toBeLessThan(200);
    expect(closed[1]!.index).toBe(1);
  });
});
