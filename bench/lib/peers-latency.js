// The latency workload of bench/peers.js (bench/open-error.js's rounds) per client: its medians,
// and the floor each goal and the README's quote compare coachbench with. Apart from
// peers-summary.js and peers-table.js so that both, and the README's quote, take it without a cycle.
import { median } from './median.js';
import { rounder } from './round.js';

/** To the µs, as open-error.js writes its errors in ms. */
const toUs = rounder(3);

const percentilesOf = (list) => ({
  p50: toUs(median(list.map((e) => e.p50))),
  p99: toUs(median(list.map((e) => e.p99))),
  p999: toUs(median(list.map((e) => e.p999))),
});

/**
 * The latency workload per client and stream count: the median over its rounds of each error
 * percentile, and the range of the p99 against nginx (one short window is one draw of where a
 * garbage collection falls, so one round's p99 is not the client's).
 */
export function latencyMedians(rows) {
  const groups = new Map();
  for (const row of rows) {
    const key = `${row.client}\u0000${row.streams}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()].map((list) => {
    const measured = (field) => list.map((row) => row[field]).filter((e) => e !== null && e !== undefined);
    const nginx = measured('errorVsNginxMs');
    const ruler = measured('errorVsRulerMs');
    const p99s = nginx.map((e) => e.p99);
    return {
      client: list[0].client,
      streams: list[0].streams,
      rounds: list.length,
      requests: Math.round(median(list.map((row) => row.requests))),
      errorVsNginxMs: nginx.length === 0 ? null : percentilesOf(nginx),
      errorVsNginxP99RangeMs: p99s.length === 0 ? null : [Math.min(...p99s), Math.max(...p99s)],
      errorVsRulerMs: ruler.length === 0 ? null : percentilesOf(ruler),
    };
  });
}

/**
 * Of the floor's rows at `streams` in `latency` (latencyMedians), the one with the lower p99
 * against nginx: the stricter comparison, quoted by the goals and the README alike. Null when
 * no floor ran.
 */
export function bestFloor(latency, streams) {
  const p99 = (row) => row.errorVsNginxMs?.p99 ?? Number.POSITIVE_INFINITY;
  return latency
    .filter((row) => row.client !== 'coachbench' && row.streams === streams)
    .reduce((low, row) => (low === null || p99(row) < p99(low) ? row : low), null);
}
