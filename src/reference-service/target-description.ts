/**
 * What a running reference target says of itself, the same whether one process serves it or
 * a cluster does: where it listens, how, and who may call it.
 */
import type { SeededTarget } from './state/seed-data.js';
import type { TargetConfig } from './target-config.js';
import type { RunningTarget } from './target-types.js';

export type TargetDescription = Pick<RunningTarget, 'url' | 'certificate' | 'port' | 'keepAliveMs' | 'faults' | 'fixtures' | 'connectorToken'>;

/** The description of a target of `config` and `seeded` listening on `host` (an address or name; IPv6 bracketed in the URL) and `port`. */
export function describeTarget(config: TargetConfig, seeded: SeededTarget, host: string, port: number): TargetDescription {
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `${config.tls ? 'https' : 'http'}://${urlHost}:${port}`,
    certificate: config.tls?.cert ?? null,
    port,
    keepAliveMs: config.keepAliveMs,
    faults: config.faults,
    fixtures: { apiKey: seeded.store.apiKey, coachToken: seeded.coachToken, participants: seeded.participants },
    connectorToken: seeded.connectorToken,
  };
}
