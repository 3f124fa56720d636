/**
 * The primary's view of its workers' counters. `stats()` must be synchronous, so it sums the
 * snapshots each worker pushes every 100 ms; `collect()` asks every worker and sums fresh
 * ones. KEEP_ALIVE lateness is summed exactly: the workers send their histogram buckets.
 */
import { LatenessHistogram } from '../streams/lateness-histogram.js';
import type { TargetStats, TargetWorkerStats } from '../target-types.js';
import type { WorkerSnapshot } from './cluster-messages.js';

interface Collection {
  waiting: Set<number>;
  resolve(stats: TargetStats): void;
}

const COUNTERS = ['openStreams', 'openChatStreams', 'openMainStreams', 'streamHandles', 'eventsSent', 'keepAlivesSent', 'requests'] as const;

/** Latest snapshot per worker, their sum, and on-demand collections. */
export class StatsBoard {
  private readonly latest = new Map<number, { pid: number; snapshot: WorkerSnapshot }>();
  private readonly collections = new Map<number, Collection>();
  private nextId = 1;
  private epoch = 0;

  /** A snapshot from worker `index`; `id` answers a collection. */
  update(index: number, pid: number, snapshot: WorkerSnapshot, id: number | null): void {
    this.latest.set(index, { pid, snapshot });
    if (id === null) return;
    const collection = this.collections.get(id);
    if (collection?.waiting.delete(index) && collection.waiting.size === 0) this.complete(id, collection);
  }

  /** A worker exited: stop waiting for its answers (its last snapshot stays). */
  retire(index: number): void {
    for (const [id, collection] of [...this.collections]) {
      if (collection.waiting.delete(index) && collection.waiting.size === 0) this.complete(id, collection);
    }
  }

  /** A worker died: its streams went with it, so its figures leave the sums. */
  forget(index: number): void {
    this.latest.delete(index);
  }

  /** Starts a collection from `workers`; `ask(id)` sends the requests. */
  collect(workers: number[], ask: (id: number) => void): Promise<TargetStats> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const collection: Collection = { waiting: new Set(workers), resolve };
      this.collections.set(id, collection);
      if (workers.length === 0) this.complete(id, collection);
      else ask(id);
    });
  }

  /** Starts a new lateness window; returns its epoch (snapshots of older ones stop counting). */
  resetLateness(): number {
    this.epoch += 1;
    return this.epoch;
  }

  /** The workers' sums, with each worker's own figures in `perWorker`. */
  sum(): TargetStats {
    const total: TargetStats = { openStreams: 0, openChatStreams: 0, openMainStreams: 0, streamHandles: 0, eventsSent: 0, keepAlivesSent: 0, requests: 0 };
    const merged = new LatenessHistogram();
    const perWorker: TargetWorkerStats[] = [];
    for (const [index, { pid, snapshot }] of [...this.latest].sort((a, b) => a[0] - b[0])) {
      const own = new LatenessHistogram();
      // A snapshot taken before the last reset still holds the old window's lateness.
      if (snapshot.latenessEpoch === this.epoch) own.addSparse(snapshot.lateness);
      if (snapshot.latenessEpoch === this.epoch) merged.addSparse(snapshot.lateness);
      for (const key of COUNTERS) total[key] = (total[key] ?? 0) + (snapshot.stats[key] ?? 0);
      perWorker.push({ ...snapshot.stats, keepAliveLateMs: own.summary(), index, pid, rssBytes: snapshot.rssBytes, cpuMs: Math.round(snapshot.cpuMs) });
    }
    return { ...total, keepAliveLateMs: merged.summary(), perWorker };
  }

  private complete(id: number, collection: Collection): void {
    this.collections.delete(id);
    collection.resolve(this.sum());
  }
}
