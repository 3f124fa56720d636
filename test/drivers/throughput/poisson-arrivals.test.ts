/**
 * Poisson arrivals through the engine against the reference target (docs/design.md §6): the
 * run plans the seed's schedule, achieves it, and times every request from its intended start.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { resolveProfile } from '../../../src/contract/profile/resolve-profile.js';
import { photoUploadScenario } from '../../../src/drivers/throughput/index.js';
import { schedulePacer } from '../../../src/engine/arrival-pacer.js';
import { scheduledSlotsName } from '../../../src/metrics/throughput-extra-names.js';
import { buildPhotoUploadSummary } from '../../../src/metrics/throughput-summary.js';
import { startTarget } from '../../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../../src/reference-service/target-types.js';
import { testRun } from '../../support/throughput-helpers.js';

let target: RunningTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

/** Photo uploads stepping to 100/s held for 3 s: stages are times in the run, so the schedule is the seed's alone. */
const poissonProfile = (seed: number) =>
  resolveProfile(
    {
      name: 'poisson-test',
      seed,
      chatStreams: { enabled: false },
      photoUpload: {
        enabled: true,
        arrivals: 'poisson',
        stages: [
          { duration: 0, target: 100 },
          { duration: '3s', target: 'hold' },
        ],
        imageSizes: ['16KiB'],
        overrideShare: 0,
      },
    },
    'test',
  );

describe('Poisson arrivals against the reference target', () => {
  it('plan the seed’s schedule, achieve its rate and time each request from its intended start', async () => {
    target = await startTarget({ participants: 8, faults: ['latency=40'] });
    const profile = poissonProfile(7);
    const total = await testRun(target.url, target.fixtures, profile).run(photoUploadScenario);
    const summary = buildPhotoUploadSummary(total, profile.photoUpload);

    // The planned arrivals are the ones the seed draws for process 0 (the run's stage plan), not 300.
    const planned = schedulePacer(
      { arrivals: 'poisson', stages: profile.photoUpload.stages, startRatePerSec: 100, endRatePerSec: 100, durationMs: profile.durationMs },
      { seed: 7, stream: 0, workload: 'photoUpload' },
    ).totalSlots;
    expect(planned).not.toBe(300);
    expect(Math.abs(planned - 300)).toBeLessThan(4 * Math.sqrt(300));
    const scheduled = total.count(scheduledSlotsName('photoUpload'));
    expect(scheduled).toBe(planned);
    // Achieved: every planned arrival sent but a slot or two the stop may cut; none dropped.
    expect(summary.droppedSlots).toBe(0);
    expect(summary.errors).toBe(0);
    expect(scheduled - summary.requests).toBeGreaterThanOrEqual(0);
    expect(scheduled - summary.requests).toBeLessThanOrEqual(2);
    // Latency from the intended start: each request once, never below the target's 40 ms.
    expect(summary.latencyMs.count).toBe(summary.requests);
    expect(summary.latencyMs.p50).toBeGreaterThanOrEqual(40);
    expect(summary.serviceTimeMs.p50).toBeGreaterThanOrEqual(40);
  });

  it('draws another schedule from another seed', async () => {
    target = await startTarget({ participants: 8 });
    const counts: number[] = [];
    for (const seed of [7, 8]) {
      const profile = poissonProfile(seed);
      const total = await testRun(target.url, target.fixtures, profile).run(photoUploadScenario);
      counts.push(total.count(scheduledSlotsName('photoUpload')));
    }
    expect(counts[0]).not.toBe(counts[1]);
  });
});
