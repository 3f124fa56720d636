/**
 * An open-model run lasts its configured duration, and its achieved rate is judged over it
 * (docs/throughput.md, open model): a short schedule whose last slot is answered early
 * neither ends the run then nor divides its requests by the seconds up to that answer.
 * Through the engine's runScenarios() against the reference target.
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

describe('an open-model run of 1 s', () => {
  for (const ratePerSec of [1, 2]) {
    it(`at ${ratePerSec}/s lasts its second and achieves ${ratePerSec}/s over it`, async () => {
      const profile = testProfile(1_000, { ratePerSec, overrideShare: 0 }, { enabled: false });
      const startedMs = performance.now();
      const total = await testRun(target.url, target.fixtures, profile).run(photoUploadScenario);
      const elapsedMs = performance.now() - startedMs;
      const summary = buildPhotoUploadSummary(total, profile.photoUpload);

      expect(summary.requests).toBe(ratePerSec);
      expect(summary.errors).toBe(0);
      // Not before the duration; the upper margin is the loaded machine's, not a drain (nothing is in flight).
      expect(elapsedMs).toBeGreaterThanOrEqual(990);
      expect(elapsedMs).toBeLessThan(2_500);
      // The schedule spans the run once the image corpus is built, a little under 1 s.
      expect(summary.activeSeconds).toBeGreaterThan(0.8);
      expect(summary.activeSeconds).toBeLessThanOrEqual(1);
      expect(summary.throughputPerSec).toBeGreaterThanOrEqual(ratePerSec);
      expect(summary.throughputPerSec).toBeLessThan(ratePerSec * 1.25);
      expect(summary.requestedRatePerSec).toBe(ratePerSec);
    });
  }
});
