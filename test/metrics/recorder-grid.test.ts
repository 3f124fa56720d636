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
    await sleep(1_000);
    recorder.stop();
    const whole = closed.slice(0, -1);
    expect(whole.length).toBeGreaterThanOrEqual(40);
    for (const { index, endSec } of whole) expect(endSec * 1_000, `interval ${index}`).toBeGreaterThanOrEqual((index + 1) * 20);
  });
});

describe('a Recorder on a busy loop', () => {
  it('ticks late but never drifts: interval n ends near (n + 1) × length however many came before', async () => {
    const { recorder, closed } = recording(50);
    recorder.start();
    // Busy 12 ms of every 20: each tick is late by up to 12 ms, and a re-armed timer would carry it on.
    const blocker = setInterval(() => busyFor(12), 20);
    await sleep(2_000);
    clearInterval(blocker);
    recorder.stop();
    const whole = closed.slice(0, -1);
    expect(whole.length).toBeGreaterThanOrEqual(30);
    for (const { index, endSec } of whole) expect(endSec * 1_000 - (index + 1) * 50, `interval ${index}`).toBeLessThan(25);
    expect(whole.at(-1)!.index).toBeGreaterThanOrEqual(36);
    // Each interval starts where the one before ended: nothing is lost between them.
    for (let i = 1; i < closed.length; i++) expect(closed[i]!.startSec).toBe(closed[i - 1]!.endSec);
  });

  it('closes one long interval over a stall and skips the indices it swallowed', async () => {
    const { recorder, closed } = recording(100);
    recorder.start();
    await sleep(150);
    busyFor(330);
    await sleep(200);
    recorder.stop();
    const stalled = closed.find((interval) => interval.endSec - interval.startSec > 0.3)!;
    expect(stalled.index).toBe(1);
    const next = closed[closed.indexOf(stalled) + 1]!;
    expect(next.index).toBe(4);
    const indices = closed.map((interval) => interval.index);
    expect(indices).toEqual([...indices].sort((a, b) => a - b));
    expect(new Set(indices).size).toBe(indices.length);
  });

  it('keeps to the grid of a zero read earlier on another loop (a thread told to go late)', async () => {
    const zeroMs = performance.now() - 30;
    const { recorder, closed } = recording(100, zeroMs);
    recorder.start();
    await sleep(250);
    recorder.stop();
    expect(closed[0]).toMatchObject({ index: 0, startSec: 0 });
    // Node's timers may fire up to a millisecond early (ms rounding).
    expect(closed[0]!.endSec).toBeGreaterThanOrEqual(0.098);
    expect(closed[0]!.endSec).toBeLessThan(0.13);
    expect(closed[1]!.index).toBe(1);
  });
});
