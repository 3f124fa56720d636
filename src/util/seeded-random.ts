/**
 * mulberry32: a small seeded PRNG, for what must be the same on every machine and every run
 * (the reference service's fixtures, permutation tests, test data). Never for secrets.
 */

/** A stream of 32-bit unsigned integers starting from `state` (any 32-bit integer). */
export function mulberry32(state: number): () => number {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** Floats in [0, 1) from `seed`. */
export function seededRandom(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 4_294_967_296;
}
