/**
 * report.json `transport.protocols` (docs/design.md §2.14): connections by driver and the
 * protocol each negotiated, from the run's counters. Counters add across workers and shards,
 * so a merged report's figures are the whole run's, as a single process's would be.
 */
import { countersUnder } from './chat-summary.js';
import type { MetricSet } from './metric-set.js';
import { CONNECTIONS_PREFIX } from './names.js';

export function protocolsOf(total: MetricSet): Record<string, Record<string, number>> {
  const protocols: Record<string, Record<string, number>> = {};
  for (const [name, count] of Object.entries(countersUnder(total, CONNECTIONS_PREFIX))) {
    // `streams.http/1.1`: the driver, then the protocol (which has dots of its own).
    const dot = name.indexOf('.');
    const driver = name.slice(0, dot);
    protocols[driver] = { ...protocols[driver], [name.slice(dot + 1)]: count };
  }
  return protocols;
}
