/**
 * Requests in flight when a run ends drain for a bounded grace, then are cut: against a
 * target that accepts every request and never answers, a short run ends about the grace
 * after its duration (not a whole 10 s timeout later), and what was cut counts as neither
 * requests, nor errors, nor check evidence.
 */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { photoUploadScenario, probesScenario, tagLinkScenario } from '../../../src/drivers/throughput/index.js';
import { DRAIN_GRACE_MS } from '../../../src/engine/drain.js';
import { cutAtEndName, PROBE_NAMES } from '../../../src/metrics/throughput-extra-names.js';
import { buildPhotoUploadSummary, buildTagLinkSummary } from '../../../src/metrics/throughput-summary.js';
import { checksOf, startServer, testProfile, testRun } from '../../support/throughput-helpers.js';

const fixtures = {
  apiKey: 'key-0001',
  coachToken: 'coach-0001',
  participants: [1, 2].map((i) => ({ userId: `p-${i}`, token: `token-${i}`, chatSessionIds: [`cs-${i}`] })),
};

describe('the end of a run against a target that never answers', () => {
  it('cuts what is in flight after the drain grace and judges none of it', async () => {
    const server = await startServer(() => undefined);
    try {
      // The default 10 s timeout: only the cut can end these requests in time.
      const profile = testProfile(800, { ratePerSec: 20, timeout: '10s' }, { ratePerSec: 20, timeout: '10s' });
      const startedMs = performance.now();
      const total = await testRun(server.url, fixtures, profile).run(probesScenario, photoUploadScenario, tagLinkScenario);
      const elapsedMs = performance.now() - startedMs;
      expect(elapsedMs).toBeGreaterThanOrEqual(800 + DRAIN_GRACE_MS - 50);
      expect(elapsedMs).toBeLessThan(800 + DRAIN_GRACE_MS + 1_500);

      const photo = buildPhotoUploadSummary(total, profile.photoUpload);
      const tags = buildTagLinkSummary(total, profile.tagLink);
      expect(total.count(cutAtEndName('photoUpload'))).toBeGreaterThan(5);
      expect(total.count(cutAtEndName('tagLink'))).toBeGreaterThan(5);
      expect([photo.requests, photo.errors, tags.requests, tags.errors]).toEqual([0, 0, 0, 0]);
      // The first probe waited, was cut, and the probes stopped: no "no answer" failure.
      expect(total.count(cutAtEndName('probes'))).toBe(1);
      expect(total.samplesOf(PROBE_NAMES.samples).join('\n')).toMatch(/cut by the end of the run before an answer; not evidence/);
      const checks = checksOf(total);
      for (const id of ['photo.upload', 'photo.fieldname.override', 'tags.link', 'auth.apikey.required', 'errors.problem_json'] as const) {
        expect(checks[id].status, `${id}: ${checks[id].detail}`).toBe('skip');
      }
    } finally {
      await server.close();
    }
  });
});
