/**
 * W3C Trace Context `traceparent` headers (docs/design.md §2.12): version 00, a random 16-byte
 * trace id and 8-byte parent id, and the sampled flag. Made from a pooled buffer of random
 * bytes refilled in blocks, so a header costs a hex slice and a string join, not an SDK span
 * or a system call per request. Also parses what a target receives (the reference service's
 * `--log-traces`).
 */
import { randomFillSync } from 'node:crypto';

/** What a run sends: the share of its traceparents with the sampled flag on (0..1). */
export interface TraceSettings {
  sampleRate: number;
}

export interface Traceparent {
  /** 32 lower-case hex digits. */
  traceId: string;
  /** 16 lower-case hex digits: the caller's span the target's span is a child of. */
  parentId: string;
  /** The header value: `00-<trace id>-<parent id>-<01|00>`. */
  header: string;
}

const ID_BYTES = 16 + 8;
/** Ids made per refill of the pool. */
const IDS_PER_POOL = 512;
const pool = Buffer.alloc(ID_BYTES * IDS_PER_POOL);
let next = IDS_PER_POOL;

const ZERO_TRACE = '0'.repeat(32);
const ZERO_PARENT = '0'.repeat(16);

/** A new traceparent; `sampled` decided by `sampleRate` and `random` (Math.random by default). */
export function newTraceparent(sampleRate: number, random: () => number = Math.random): Traceparent {
  for (;;) {
    if (next === IDS_PER_POOL) {
      randomFillSync(pool);
      next = 0;
    }
    const at = next++ * ID_BYTES;
    const traceId = pool.toString('hex', at, at + 16);
    const parentId = pool.toString('hex', at + 16, at + ID_BYTES);
    // All-zero ids are invalid (W3C Trace Context §3.2.2.3); vanishingly rare, but never sent.
    if (traceId === ZERO_TRACE || parentId === ZERO_PARENT) continue;
    const sampled = sampleRate >= 1 || (sampleRate > 0 && random() < sampleRate);
    return { traceId, parentId, header: `00-${traceId}-${parentId}-${sampled ? '01' : '00'}` };
  }
}

export interface ParsedTraceparent {
  version: string;
  traceId: string;
  parentId: string;
  sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** The fields of a `traceparent` value, or null when it is not one (W3C Trace Context §3.2). */
export function parseTraceparent(value: string | undefined): ParsedTraceparent | null {
  if (value === undefined) return null;
  const match = TRACEPARENT.exec(value.trim());
  if (match === null) return null;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  // Version ff is invalid; version 00 has exactly four fields.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return null;
  if (traceId === ZERO_TRACE || parentId === ZERO_PARENT) return null;
  return { version, traceId, parentId, sampled: (Number.parseInt(flags, 16) & 1) === 1 };
}
