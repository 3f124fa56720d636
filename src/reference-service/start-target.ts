/**
 * startTarget(): the reference target as a library. Seeds the store, starts a node:http
 * server on loopback (port 0 by default) and returns its URL, fixtures, stats and close().
 * With `workers: N > 1` it becomes the primary of N cluster workers (cluster/cluster-target.ts).
 */
import { registerSecret } from '../util/redact.js';
import { startClusterTarget } from './cluster/cluster-target.js';
import { LocalCommandBus } from './state/commands/local-bus.js';
import { seedTarget } from './state/seed-data.js';
import { resolveTargetConfig, seedOptionsOf, type TargetConfig } from './target-config.js';
import { describeTarget } from './target-description.js';
import { buildTargetRuntime } from './target-runtime.js';
import type { RunningTarget, TargetOptions } from './target-types.js';

/** Starts the reference target. Rejects with ConfigError on bad options, StartError if it cannot listen. */
export async function startTarget(options: TargetOptions = {}): Promise<RunningTarget> {
  const config = await resolveTargetConfig(options);
  return config.workers > 1 ? startClusterTarget(config) : startSingleTarget(config);
}

async function startSingleTarget(config: TargetConfig): Promise<RunningTarget> {
  const seeded = seedTarget(seedOptionsOf(config));
  if (config.tokenTtlMs !== null) seeded.store.expireTokensAfter(config.tokenTtlMs);
  for (const secret of [seeded.store.apiKey, seeded.coachToken, seeded.connectorToken]) registerSecret(secret);
  const runtime = buildTargetRuntime({
    config,
    store: seeded.store,
    commands: (delivery) => new LocalCommandBus(seeded.store, delivery),
    decidesLeaks: true,
  });
  const address = await runtime.listen();
  return {
    ...describeTarget(config, seeded, address.address, address.port),
    stats: () => runtime.stats(),
    collectStats: () => Promise.resolve(runtime.stats()),
    resetKeepAliveLateness: () => runtime.streams.resetKeepAliveLateness(),
    close: () => runtime.close(),
  };
}
