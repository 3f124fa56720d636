/**
 * startTarget({ workers: N > 1 }): this process becomes the primary of N node:cluster workers
 * sharing one port. The primary serves no HTTP itself: it seeds the authoritative store,
 * owns every mutation (CommandCoordinator), sums the workers' stats (StatsBoard) and stops
 * them all on close() or when one dies (it does not restart it). See docs/target.md "Workers".
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { compiledSibling } from '../../util/compiled-sibling.js';
import { StartError } from '../../util/errors.js';
import { registerSecret } from '../../util/redact.js';
import { resolveFaults, scheduleFaults } from '../faults/faults.js';
import { type SeededTarget, seedTarget } from '../state/seed-data.js';
import { seedOptionsOf, type TargetConfig } from '../target-config.js';
import { describeTarget } from '../target-description.js';
import type { RunningTarget } from '../target-types.js';
import { CommandCoordinator } from './command-coordinator.js';
import { StatsBoard } from './stats-board.js';
import { WorkerGroup } from './worker-group.js';

/** Seeding a million participants takes seconds per worker; nothing should take longer. */
const START_TIMEOUT_MS = 120_000;

/** The compiled worker entry: from dist/ even when this module runs from src/ (tests). */
export function workerEntry(): string {
  const entry = compiledSibling(import.meta.url, 'service-worker-main.js');
  if (!existsSync(entry)) throw new StartError(`the target worker entry ${entry} is missing (run npm run build)`);
  return entry;
}

/** A free port on `host`, for workers that must all listen on one known port. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(new StartError(`the reference target cannot listen on ${host} (${error.code ?? error.message})`)),
    );
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new StartError('no port'))));
    });
  });
}

/** Starts the primary and its workers; resolves when every worker listens. */
export async function startClusterTarget(config: TargetConfig): Promise<RunningTarget> {
  const entry = workerEntry();
  const createdAt = new Date().toISOString();
  const seeded = seedTarget(seedOptionsOf(config, createdAt));
  for (const secret of [seeded.store.apiKey, seeded.coachToken, seeded.connectorToken]) registerSecret(secret);
  // Cluster workers listening on port 0 would share whatever handle another cluster target of
  // this process got for port 0, so the primary picks the port. Another process may take it
  // between the probe and the workers' listen: then try another.
  for (let attempt = 1; ; attempt += 1) {
    const port = config.port === 0 ? await freePort(config.host) : config.port;
    try {
      return await launch({ ...config, port }, entry, createdAt, seeded);
    } catch (error) {
      if (config.port !== 0 || attempt >= 3 || !/EADDRINUSE/.test((error as Error).message)) throw error;
    }
  }
}

async function launch(config: TargetConfig, entry: string, createdAt: string, seeded: SeededTarget): Promise<RunningTarget> {
  const board = new StatsBoard();
  const { promise: failed, resolve: reportFailure } = Promise.withResolvers<string>();
  let closing: Promise<void> | null = null;
  let cancelFaults = (): void => {};
  const close = (): Promise<void> => {
    cancelFaults();
    closing ??= group.shutdown();
    return closing;
  };
  const group: WorkerGroup = new WorkerGroup(entry, config, createdAt, {
    onMessage: (index, pid, message) => {
      if (message.type === 'command') coordinator.onCommand(index, message.id, message.command);
      else if (message.type === 'ack') coordinator.onAck(index, message.seq, message.canLeak);
      else if (message.type === 'snapshot') board.update(index, pid, message.snapshot, message.id);
    },
    onExit: (index) => {
      coordinator.retire(index);
      board.retire(index);
    },
    onDeath: (index, pid, reason) => {
      board.forget(index);
      const line = `target worker ${index} (pid ${pid}) died: ${reason}; stopping the target`;
      process.stderr.write(`coachbench: ${line}\n`);
      reportFailure(line);
      void close();
    },
  });
  const coordinatorFaults = resolveFaults(config.faults);
  const coordinator = new CommandCoordinator(seeded.store, coordinatorFaults, group);
  await group.start(START_TIMEOUT_MS);
  coordinator.open();
  // The coordinator decides `leak`; each worker schedules its own faults when it listens.
  cancelFaults = scheduleFaults(config.faults, coordinatorFaults);
  return {
    ...describeTarget(config, seeded, config.host, config.port),
    stats: () => board.sum(),
    collectStats: () => {
      const live = group.live();
      return board.collect(live, (id) => {
        for (const index of live) group.send(index, { type: 'collect-stats', id });
      });
    },
    resetKeepAliveLateness: () => {
      const epoch = board.resetLateness();
      for (const index of group.live()) group.send(index, { type: 'reset-lateness', epoch });
    },
    workers: group.list(),
    failed,
    close,
  };
}
