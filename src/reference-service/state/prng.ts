/**
 * A small seeded PRNG (mulberry32) so fixtures (ids, tokens, names) are the same for the
 * same `--seed` on every machine. Not for secrets that must resist guessing: the target is
 * a loopback test server and its tokens only need to be unique and stable.
 */
import { mulberry32 } from '../../util/seeded-random.js';

export interface Prng {
  /** A float in [0, 1). */
  next(): number;
  /** `bytes` random bytes as lowercase hex. */
  hex(bytes: number): string;
}

/** A deterministic PRNG for `seed` (any 32-bit integer). */
export function createPrng(seed: number): Prng {
  // Mix the seed once so that nearby seeds (1, 2, 3) do not start with similar outputs.
  const nextUint32 = mulberry32(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) >>> 0 || 0x6d2b79f5);
  return {
    next: () => nextUint32() / 4_294_967_296,
    hex: (bytes) => {
      let out = '';
      while (out.length < bytes * 2) out += nextUint32().toString(16).padStart(8, '0');
      return out.slice(0, bytes * 2);
    },
  };
}
