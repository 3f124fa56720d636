/**
 * A scenario's run does not throw (engine/scenario.ts): an error out of its driver, a bug, is
 * kept as a sample of the interval it ended in, and the run goes on.
 */
import { describe, expect, it } from 'vitest';
import { runNotFatal } from '../../src/engine/scenario.js';
import { MetricSet } from '../../src/metrics/metric-set.js';

describe('runNotFatal', () => {
  it('keeps a driver error as a sample of the interval it ended in, and resolves', async () => {
    const ctx = { metrics: new MetricSet() };
    const first = ctx.metrics;
    await expect(
      runNotFatal(ctx, 'photoUpload', 'scenario', async () => {
        // The interval closes while the work runs: the sample belongs to the next one.
        ctx.metrics = new MetricSet();
        throw new Error('corpus gone');
      }),
    ).resolves.toBeUndefined();
    expect(first.samplesOf('photoUpload')).toEqual([]);
    expect(ctx.metrics.samplesOf('photoUpload')).toEqual(['scenario stopped by an internal error: corpus gone']);
  });

  it('adds nothing when the work ends well', async () => {
    const ctx = { metrics: new MetricSet() };
    await runNotFatal(ctx, 'probes', 'probes', async () => undefined);
    expect(ctx.metrics.samplesOf('probes')).toEqual([]);
  });
});
