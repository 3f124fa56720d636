/**
 * A set of strings (thousands of participants' tokens) and every place any of them occurs in
 * a text, whatever characters they hold: one pass over the text, whatever the number of
 * strings (docs/design.md §2.7).
 *
 * Each string is indexed under the hash of one window of WINDOW characters inside it. A
 * scan hashes the window at every position of the text and checks only the strings filed
 * under that hash, each with one `startsWith` at the offset its window sits at. The window
 * is chosen per string, among several offsets, where its bucket is emptiest: tokens of one
 * issuer share long prefixes (every JWT starts `eyJhbGciOi`), and indexing them all under
 * their first characters would make one bucket hold every token.
 */

/** Characters hashed per position: the shortest string the set takes. */
export const WINDOW = 4;

/** Offsets tried per string when choosing its window: enough to step past a shared prefix or suffix. */
const OFFSETS_TRIED = 32;

/**
 * Bits of the filter in front of the buckets: most windows of a text are in no bucket, and
 * one bit read answers that faster than a Map lookup. 2^20 bits (128 KiB) keep it sparse
 * with tens of thousands of strings.
 */
const FILTER_BITS = 20;
const FILTER_MASK = (1 << FILTER_BITS) - 1;

interface Entry {
  readonly text: string;
  /** Where the indexed window starts inside `text`. */
  readonly offset: number;
}

/** A 30-bit hash of text[at, at + WINDOW): a small integer, so the Map keeps it unboxed. */
function windowKey(text: string, at: number): number {
  let hash = text.charCodeAt(at);
  for (let i = 1; i < WINDOW; i++) hash = Math.imul(hash, 0x01000193) ^ text.charCodeAt(at + i);
  return hash & 0x3fffffff;
}

export class SubstringSet {
  private readonly buckets = new Map<number, Entry[]>();
  /** Each member and the key of the bucket it is filed under. */
  private readonly members = new Map<string, number>();
  private readonly filter = new Uint8Array((1 << FILTER_BITS) / 8);
  /** Members deleted since the filter was last rebuilt: their bits may still be set. */
  private stale = 0;

  /** At least the length of the longest string in the set (0 when empty); a deleted member's length may stay. */
  longest = 0;

  /** How many strings are in the set. */
  get size(): number {
    return this.members.size;
  }

  /** Adds `text` (ignored when shorter than WINDOW characters or already in). */
  add(text: string): void {
    if (text.length < WINDOW || this.members.has(text)) return;
    this.longest = Math.max(this.longest, text.length);
    const windows = text.length - WINDOW + 1;
    const step = Math.max(1, Math.floor(windows / OFFSETS_TRIED));
    let bestOffset = 0;
    let bestSize = Number.POSITIVE_INFINITY;
    for (let offset = 0; offset < windows && bestSize > 0; offset += step) {
      const size = this.buckets.get(windowKey(text, offset))?.length ?? 0;
      if (size < bestSize) {
        bestSize = size;
        bestOffset = offset;
      }
    }
    const key = windowKey(text, bestOffset);
    this.members.set(text, key);
    this.setBit(key);
    const bucket = this.buckets.get(key);
    const entry = { text, offset: bestOffset };
    if (bucket) bucket.push(entry);
    else this.buckets.set(key, [entry]);
  }

  /**
   * Removes `text` (nothing when it is no member). Its bit in the filter stays until as many
   * members have been deleted as remain, when the filter is rebuilt from the buckets: a stale
   * bit costs only a Map lookup, and a set that renews its members keeps a sparse filter.
   */
  delete(text: string): void {
    const key = this.members.get(text);
    if (key === undefined) return;
    this.members.delete(text);
    const bucket = this.buckets.get(key) ?? [];
    const kept = bucket.filter((entry) => entry.text !== text);
    if (kept.length === 0) this.buckets.delete(key);
    else this.buckets.set(key, kept);
    this.stale += 1;
    if (this.stale > this.members.size) {
      this.filter.fill(0);
      for (const bucketKey of this.buckets.keys()) this.setBit(bucketKey);
      this.stale = 0;
    }
  }

  private setBit(key: number): void {
    const bit = key & FILTER_MASK;
    this.filter[bit >>> 3] = (this.filter[bit >>> 3] as number) | (1 << (bit & 7));
  }

  /**
   * Every occurrence of any member in `text`, as the ranges they cover, overlapping or
   * touching ones merged: sorted `[start, end)` pairs, flattened.
   */
  ranges(text: string): number[] {
    const found: Array<[number, number]> = [];
    const last = text.length - WINDOW;
    const filter = this.filter;
    for (let at = 0; at <= last; at++) {
      const key = windowKey(text, at);
      const bit = key & FILTER_MASK;
      if (((filter[bit >>> 3] as number) & (1 << (bit & 7))) === 0) continue;
      const bucket = this.buckets.get(key);
      if (bucket === undefined) continue;
      for (const entry of bucket) {
        const start = at - entry.offset;
        if (start >= 0 && text.startsWith(entry.text, start)) found.push([start, start + entry.text.length]);
      }
    }
    if (found.length === 0) return [];
    found.sort((a, b) => a[0] - b[0]);
    const merged: number[] = [];
    let [start, end] = found[0] as [number, number];
    for (const [nextStart, nextEnd] of found) {
      if (nextStart <= end) end = Math.max(end, nextEnd);
      else {
        merged.push(start, end);
        [start, end] = [nextStart, nextEnd];
      }
    }
    merged.push(start, end);
    return merged;
  }

  /** `text` with every occurrence of a member replaced by `mask`. */
  mask(text: string, mask: string): string {
    if (this.members.size === 0 || text.length < WINDOW) return text;
    const ranges = this.ranges(text);
    if (ranges.length === 0) return text;
    let out = '';
    let from = 0;
    for (let i = 0; i < ranges.length; i += 2) {
      out += text.slice(from, ranges[i]) + mask;
      from = ranges[i + 1] as number;
    }
    return out + text.slice(from);
  }
}
