import { describe, expect, it } from 'vitest';
import { newTraceparent, parseTraceparent } from '../../src/util/traceparent.js';

const FORMAT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(01|00)$/;

describe('newTraceparent', () => {
  it('is W3C version 00 with a 16-byte trace id, an 8-byte parent id and the sampled flag', () => {
    for (let i = 0; i < 2_000; i++) {
      const { traceId, header } = newTraceparent(1);
      const match = FORMAT.exec(header);
      expect(match, header).not.toBeNull();
      expect(match![1]).toBe(traceId);
      expect(match![3]).toBe('01');
      expect(traceId).not.toBe('0'.repeat(32));
    }
  });

  it('makes distinct ids across pool refills', () => {
    const traces = new Set<string>();
    const parents = new Set<string>();
    for (let i = 0; i < 5_000; i++) {
      const { header } = newTraceparent(1);
      const [, trace, parent] = FORMAT.exec(header)!;
      traces.add(trace!);
      parents.add(parent!);
    }
    expect(traces.size).toBe(5_000);
    expect(parents.size).toBe(5_000);
  });

  it('sets the sampled flag on the share --trace-sample asks for', () => {
    const flags = (rate: number, n: number): number => {
      let sampled = 0;
      for (let i = 0; i < n; i++) if (newTraceparent(rate).header.endsWith('-01')) sampled++;
      return sampled;
    };
    expect(flags(0, 1_000)).toBe(0);
    expect(flags(1, 1_000)).toBe(1_000);
    // 20,000 draws at 0.25: the share is within ±0.02 with overwhelming probability (σ ≈ 0.003).
    expect(Math.abs(flags(0.25, 20_000) / 20_000 - 0.25)).toBeLessThan(0.02);
  });

  it('decides sampling by the random source it is given', () => {
    expect(newTraceparent(0.5, () => 0.49).header.endsWith('-01')).toBe(true);
    expect(newTraceparent(0.5, () => 0.5).header.endsWith('-00')).toBe(true);
  });
});

describe('parseTraceparent', () => {
  it('reads what newTraceparent makes', () => {
    const { traceId, header } = newTraceparent(0);
    expect(parseTraceparent(header)).toEqual({ version: '00', traceId, parentId: header.slice(36, 52), sampled: false });
  });

  it.each([
    undefined,
    '',
    '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331',
    '00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01',
    '00-00000000000000000000000000000000-b7ad6b7169203331-01',
    '00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01',
    'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra',
  ])('refuses %j', (value) => {
    expect(parseTraceparent(value)).toBeNull();
  });

  it('accepts a later version with more fields', () => {
    expect(parseTraceparent('01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-03-more')?.sampled).toBe(true);
  });
});
