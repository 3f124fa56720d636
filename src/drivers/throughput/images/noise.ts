/**
 * Deterministic pseudo-random numbers for the image corpus: the same profile yields the same
 * bytes on every machine, so two runs upload identical bodies and their numbers compare.
 * xorshift32 is enough: the images need to be incompressible, not unpredictable.
 */
export interface Noise {
  /** A uint32. */
  next(): number;
  /** An integer in [0, n). */
  below(n: number): number;
  /** Fills `target` with noise bytes. */
  fill(target: Uint8Array): void;
}

/** A deterministic xorshift32 stream for `seed`. */
export function createNoise(seed: number): Noise {
  // xorshift32 has one fixed point (0); mix the seed so that 0 and small seeds are fine.
  let state = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) >>> 0 || 0x2545f491;
  const next = (): number => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
  return {
    next,
    below: (n) => next() % n,
    fill(target) {
      let i = 0;
      for (; i + 4 <= target.length; i += 4) {
        const v = next();
        target[i] = v & 0xff;
        target[i + 1] = (v >>> 8) & 0xff;
        target[i + 2] = (v >>> 16) & 0xff;
        target[i + 3] = v >>> 24;
      }
      for (; i < target.length; i++) target[i] = next() & 0xff;
    },
  };
}
