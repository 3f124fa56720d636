/**
 * Entry point of one worker of a multi-worker target (`serve --workers N`), forked by the
 * primary through node:cluster: every worker listens on the same port (the primary hands it
 * connections round-robin). It seeds the same store as the primary, serves reads from it,
 * sends every mutation to the primary, replays the primary's commands, and reports its stats.
 * Signals are the primary's to handle; a lost primary ends the worker (node:cluster does that).
 */
import { tolerateClosedOutput } from '../../util/closed-output.js';
import { registerSecret } from '../../util/redact.js';
import { seedTarget } from '../state/seed-data.js';
import type { TargetStore } from '../state/target-store.js';
import { seedOptionsOf, type TargetConfig } from '../target-config.js';
import { buildTargetRuntime, type TargetRuntime } from '../target-runtime.js';
import type { PrimaryMessage, WorkerMessage, WorkerSnapshot } from './cluster-messages.js';
import { openFileLimit } from './fd-limit.js';
import { applyReplica, WorkerCommandBus } from './worker-commands.js';

const SNAPSHOT_EVERY_MS = 100;

interface Serving {
  runtime: TargetRuntime;
  store: TargetStore;
  bus: WorkerCommandBus;
  timer: NodeJS.Timeout | null;
}

const send = (message: WorkerMessage, then?: () => void): void => {
  if (process.connected && process.send) process.send(message, undefined, {}, () => then?.());
  else then?.();
};

// It shares the primary's stdout and stderr: a reader of them that went away must not end it.
tolerateClosedOutput();

// Ctrl-C reaches the whole process group; the primary decides, and tells us with 'shutdown'.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);

let serving: Serving | null = null;
let latenessEpoch = 0;

let lastRssBytes = 0;

/** RSS, or the last value read: at its open-file limit a process cannot open /proc/self/stat. */
function rssBytes(): number {
  try {
    lastRssBytes = process.memoryUsage.rss();
  } catch {
    // EMFILE: keep serving the streams already open; the figure is a moment old.
  }
  return lastRssBytes;
}

function snapshot(runtime: TargetRuntime): WorkerSnapshot {
  const { keepAliveLateMs: _summary, ...stats } = runtime.stats();
  const cpu = process.cpuUsage();
  return {
    stats,
    lateness: runtime.streams.lateness.toSparse(),
    latenessEpoch,
    rssBytes: rssBytes(),
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}

async function configure(config: TargetConfig, index: number, createdAt: string): Promise<void> {
  const { store, coachToken, connectorToken } = seedTarget(seedOptionsOf(config, createdAt));
  for (const secret of [store.apiKey, coachToken, connectorToken]) registerSecret(secret);
  const bus = new WorkerCommandBus(send);
  const runtime = buildTargetRuntime({ config, store, commands: () => bus, decidesLeaks: false, workerLabel: String(index) });
  // Set before listening: from here on every command the primary applies is replayed here.
  const current: Serving = { runtime, store, bus, timer: null };
  serving = current;
  try {
    await runtime.listen();
  } catch (error) {
    send({ type: 'start-failed', message: (error as Error).message }, () => process.exit(1));
    return;
  }
  current.timer = setInterval(() => send({ type: 'snapshot', id: null, snapshot: snapshot(runtime) }), SNAPSHOT_EVERY_MS);
  send({ type: 'ready', fdLimit: openFileLimit() });
}

async function shutdown(): Promise<void> {
  const current = serving;
  if (!current) process.exit(0);
  if (current.timer) clearInterval(current.timer);
  current.bus.failAll();
  await current.runtime.close();
  // The last snapshot (every stream closed) before leaving, so the primary's sums end at 0.
  send({ type: 'snapshot', id: null, snapshot: snapshot(current.runtime) }, () => process.exit(0));
}

process.on('message', (message: PrimaryMessage) => {
  if (message.type === 'configure') {
    void configure(message.config, message.index, message.createdAt);
    return;
  }
  if (message.type === 'shutdown') {
    void shutdown();
    return;
  }
  // Nothing else comes before 'configure'.
  if (!serving) return;
  switch (message.type) {
    case 'apply':
      send(applyReplica(serving.store, serving.runtime.delivery, message));
      return;
    case 'reply':
      serving.bus.onReply(message);
      return;
    case 'leak':
      serving.runtime.delivery.leak(message);
      return;
    case 'collect-stats':
      send({ type: 'snapshot', id: message.id, snapshot: snapshot(serving.runtime) });
      return;
    case 'reset-lateness':
      serving.runtime.streams.resetKeepAliveLateness();
      latenessEpoch = message.epoch;
      return;
  }
});

send({ type: 'hello' });
