/**
 * Independent, reproducible random streams for what the driver draws (Poisson arrivals):
 * xoshiro128** (Blackman & Vigna), its 128-bit state filled by splitmix32 from a run seed and
 * the keys of one stream (a process index, a workload). Distinct keys give distinct states, so
 * workers and shards never share a stream; the 2^128 − 1 period keeps long streams from
 * overlapping. Never for secrets.
 */

const UINT32 = 4_294_967_296;

/** splitmix32's finaliser: a bijection on 32-bit integers that spreads every input bit. */
function mix32(value: number): number {
  let z = (value + 0x9e3779b9) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

const rotl = (x: number, k: number): number => ((x << k) | (x >>> (32 - k))) >>> 0;

/** xoshiro128** from a 128-bit state (four 32-bit words, not all zero): 32-bit unsigned outputs. */
export function xoshiro128ss(words: readonly [number, number, number, number]): () => number {
  let [a, b, c, d] = words.map((w) => w >>> 0) as [number, number, number, number];
  if ((a | b | c | d) === 0) a = 1;
  return () => {
    const result = Math.imul(rotl(Math.imul(b, 5) >>> 0, 7), 9) >>> 0;
    const t = (b << 9) >>> 0;
    c = (c ^ a) >>> 0;
    d = (d ^ b) >>> 0;
    b = (b ^ c) >>> 0;
    a = (a ^ d) >>> 0;
    c = (c ^ t) >>> 0;
    d = rotl(d, 11);
    return result;
  };
}

/** Outputs dropped after seeding, so that states that differ in one word have moved apart. */
const WARM_UP = 16;

/**
 * Doubles in [0, 1) with 53 random bits, from the stream of (`seed`, `stream`, `key`): `seed`
 * is the run's (`--seed`), `stream` a process index, `key` a workload number. Each of the three
 * fills its own state word through a bijection, so any change of one gives another stream.
 */
export function randomStream(seed: number, stream: number, key: number): () => number {
  const next = xoshiro128ss([mix32(seed >>> 0), mix32((stream >>> 0) ^ 0x5bd1e995), mix32((key >>> 0) ^ 0x27d4eb2f), 0x6a09e667]);
  for (let i = 0; i < WARM_UP; i++) next();
  return () => {
    const high = next() >>> 5;
    const low = next() >>> 6;
    return (high * 67_108_864 + low) / 9_007_199_254_740_992;
  };
}

/** The largest seed: seeds are 32-bit unsigned integers. */
export const MAX_SEED = UINT32 - 1;
