/**
 * A closed-model run's achieved rate is judged over its configured duration, as the open
 * model's is (docs/throughput.md): when the driver falls behind at the end (its event loop
 * held past the deadline, as a GC pause or a starved machine does), the connections close late,
 * but the seconds counted stop at the run's end. Through the engine's runScenarios() against
 * the reference target.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photoUploadScenario } from '../../../src/drivers/throughput/index.js';
import { buildPhotoUploadSummary } from '../../../src/metrics/throughput-summary.js';
import { startTarget } from '../../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../../src/reference-service/target-types.js';
import { testProfile, testRun } from '../../support/throughput-helpers.js';

let target: RunningTarget;

beforeAll(async () => {
  target = await startTarget({ participants: 4 });
});
afterAll(() => target.close());

/** Holds this process's event loop for `ms`: nothing else runs, timers included. */
function holdLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // The driver behind.
  }
}

describe('a closed-model run of 1 s', () => {
  it('counts its active seconds up to the run’s end, not up to a deadline that fired late', async () => {
    const profile = testProfile(1_000, { model: 'closed', connections: 2, overrideShare: 0 }, { enabled: false });
    // From 0.9 s to 1.3 s of the run the loop is held: the deadline at 1 s fires only at 1.3 s.
    const hold = setTimeout(() => holdLoop(400), 900);
    const startedMs = performance.now();
    const total = await testRun(target.url, target.fixtures, profile).run(photoUploadScenario);
    clearTimeout(hold);
    const elapsedMs = performance.now() - startedMs;
    const summary = buildPhotoUploadSummary(total, profile.photoUpload);

    expect(elapsedMs, 'the hold delayed the end').toBeGreaterThanOrEqual(1_290);
    expect(summary.requests).toBeGreaterThan(0);
    // The connections started once the image corpus was built, a little after the run.
    expect(summary.activeSeconds).toBeGreaterThan(0.3);
    expect(summary.activeSeconds).toBeLessThanOrEqual(1);
    expect(summary.throughputPerSec).toBeCloseTo(summary.requests / summary.activeSeconds, 6);
  });
});
