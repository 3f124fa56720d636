/**
 * The slowest traced requests of a stretch of the run (docs/design.md §2.12): merged by
 * keeping the slowest SLOWEST_PER_KEY of both sides per key, so a merge of intervals,
 * workers or shards lists the run's slowest, in bounded memory.
 */
import { SLOWEST_PER_KEY, type SlowRequest } from '../contract/encoded-metrics.js';
import { CHAT, throughputNames } from './names.js';

/** The key of the slowest deliveries in a MetricSet, and in report.json `slowest`. */
export const DELIVERY_SLOWEST_KEY = 'chatStreams.delivery';

/** The slowest key whose latencies a histogram holds: its exemplars (docs/metrics.md "Exemplars"). */
export const SLOWEST_KEY_OF_HISTOGRAM: Readonly<Record<string, string>> = {
  [throughputNames('photoUpload').latencyUs]: 'photoUpload',
  [throughputNames('tagLink').latencyUs]: 'tagLink',
  [CHAT.eventLatencyUs]: DELIVERY_SLOWEST_KEY,
};

/** The slowest of `a` and `b` per key, slowest first; undefined when both are. */
export function mergeSlowest(
  a: Readonly<Record<string, readonly SlowRequest[]>> | undefined,
  b: Readonly<Record<string, readonly SlowRequest[]>> | undefined,
): Record<string, SlowRequest[]> | undefined {
  if (a === undefined && b === undefined) return undefined;
  const merged: Record<string, SlowRequest[]> = {};
  for (const key of new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])) {
    merged[key] = [...(a?.[key] ?? []), ...(b?.[key] ?? [])].sort((x, y) => y.latencyMs - x.latencyMs).slice(0, SLOWEST_PER_KEY);
  }
  return merged;
}
