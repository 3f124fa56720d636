import { describe, expect, it } from 'vitest';
import { runTagPrefix, TagNamePool } from '../../../src/drivers/throughput/tag-name-pool.js';
import { mixedIndex, shareHit } from '../../../src/drivers/throughput/workload.js';

describe('TagNamePool', () => {
  it('sends only new names until the target has confirmed some', () => {
    const pool = new TagNamePool('p');
    const first = pool.pick(4, 0.5);
    expect(first.existing).toEqual([]);
    expect(first.newNames).toEqual(['p-0', 'p-1', 'p-2', 'p-3']);
  });

  it('mixes confirmed names at the requested share, carried across requests', () => {
    const pool = new TagNamePool('p');
    pool.confirm(['p-a', 'p-b', 'p-c', 'p-d', 'p-e']);
    const picks = Array.from({ length: 10 }, () => pool.pick(3, 0.5));
    const existing = picks.reduce((n, p) => n + p.existing.length, 0);
    expect(existing).toBe(15); // exactly 10 × 3 × 0.5
    for (const p of picks) {
      expect(p.names).toHaveLength(3);
      expect(new Set(p.names).size).toBe(3);
      expect(p.names).toEqual([...p.existing, ...p.newNames]);
    }
  });

  it('never repeats an existing name inside one request, even with a tiny pool', () => {
    const pool = new TagNamePool('p');
    pool.confirm(['only']);
    const pick = pool.pick(4, 1);
    expect(pick.existing).toEqual(['only']);
    expect(pick.newNames).toHaveLength(3);
  });

  it('keeps a bounded ring of confirmed names', () => {
    const pool = new TagNamePool('p', 3);
    pool.confirm(['a', 'b', 'c', 'd', 'e']);
    expect(pool.confirmedCount).toBe(3);
    const names = new Set(Array.from({ length: 3 }, () => pool.pick(1, 1).existing[0]));
    expect(names).toEqual(new Set(['d', 'e', 'c']));
  });

  it('prefixes are unique per call', () => {
    expect(runTagPrefix()).not.toBe(runTagPrefix());
  });
});

describe('shareHit and mixedIndex', () => {
  it.each([
    [0, 0],
    [0.2, 20],
    [0.5, 50],
    [1 / 3, 33],
    [1, 100],
  ])('share %d hits exactly floor(100 × share) of 100 requests', (share, hits) => {
    expect(Array.from({ length: 100 }, (_, i) => shareHit(i, share)).filter(Boolean)).toHaveLength(hits);
  });

  it('spreads over every index with no long runs on one value', () => {
    const counts = new Array<number>(9).fill(0);
    for (let i = 0; i < 9_000; i++) counts[mixedIndex(i, 9)] = (counts[mixedIndex(i, 9)] ?? 0) + 1;
    for (const c of counts) expect(c).toBeGreaterThan(800);
  });

  it.each([2, 3, 4, 9])('is uncorrelated with the override pattern: each of %i images gets both variants about equally', (n) => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 4_000; i++) {
      const key = `${mixedIndex(i, n)}:${shareHit(i, 0.5)}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(2 * n);
    for (const c of counts.values()) expect(c).toBeGreaterThan((4_000 / (2 * n)) * 0.8);
  });
});
