/**
 * One process's share of a target: the node:http server, its streams and counters, built
 * over a store and a CommandBus. A single-process target is one runtime with a
 * LocalCommandBus; under `--workers` each worker is one runtime whose bus asks the primary.
 */
import type { AddressInfo, Server as NetServer } from 'node:net';
import { StartError } from '../util/errors.js';
import { resolveFaults, scheduleFaults } from './faults/faults.js';
import { DelayScheduler } from './faults/precise-delay.js';
import { createDispatcher } from './http/dispatch.js';
import { Responder } from './http/http-reply.js';
import { Router } from './http/router.js';
import { ALL_ROUTES } from './http/routes/all-routes.js';
import { createTargetServer } from './http/target-server.js';
import { TraceLog } from './http/trace-log.js';
import type { CommandBus } from './state/commands/command-types.js';
import type { TargetStore } from './state/target-store.js';
import { LocalEventDelivery } from './streams/event-delivery.js';
import { ReplayLog } from './streams/replay-log.js';
import { LocalStreamHub } from './streams/stream-hub.js';
import { StreamRegistry } from './streams/stream-registry.js';
import type { TargetApp } from './target-app.js';
import type { TargetConfig } from './target-config.js';
import type { TargetStats } from './target-types.js';

/** What a runtime is built from. */
export interface RuntimeSetup {
  config: TargetConfig;
  store: TargetStore;
  /** The bus the routes use; it may publish through the runtime's delivery. */
  commands: (delivery: LocalEventDelivery) => CommandBus;
  /** False under `--workers`: the primary decides the `leak` fault once per event. */
  decidesLeaks: boolean;
  /** The `X-Coachbench-Worker` header value, under `--workers`. */
  workerLabel?: string;
}

/** A built, not yet listening, target process. */
export interface TargetRuntime {
  server: NetServer;
  delivery: LocalEventDelivery;
  streams: StreamRegistry;
  /** Listens on `config.host:config.port`; StartError when it cannot. */
  listen(): Promise<AddressInfo>;
  /** This process's counters (no `perWorker`). */
  stats(): TargetStats;
  /** Ends every stream and connection; resolves when the server is closed. */
  close(): Promise<void>;
}

/** Builds the runtime; nothing listens until `listen()`. */
export function buildTargetRuntime(setup: RuntimeSetup): TargetRuntime {
  const { config, store } = setup;
  const settings = resolveFaults(config.faults);
  const counters = { eventsSent: 0, keepAlivesSent: 0, requests: 0 };
  const delays = new DelayScheduler();
  const hub = new LocalStreamHub();
  const replay = new ReplayLog();
  const streams = new StreamRegistry(hub, settings, config.keepAliveMs, counters, replay, config.sseRetryMs, config.accelBufferingHeader);
  const delivery = new LocalEventDelivery(hub, settings, delays, setup.decidesLeaks, replay);
  const traceLog = config.traceLogFile !== null ? new TraceLog(config.traceLogFile) : undefined;
  const app: TargetApp = {
    store,
    reply: new Responder(delays, settings, traceLog),
    commands: setup.commands(delivery),
    streams,
    faults: settings,
    keepAliveMs: config.keepAliveMs,
    sessionsPerParticipant: config.sessionsPerParticipant,
    tokensExpire: config.tokenTtlMs !== null,
    ...(setup.workerLabel !== undefined ? { workerLabel: setup.workerLabel } : {}),
    ...(traceLog !== undefined ? { traceLog } : {}),
  };
  const { server, close: closeServer } = createTargetServer({ tls: config.tls, http2: config.http2 }, createDispatcher(app, new Router(ALL_ROUTES), counters));
  let closing: Promise<void> | null = null;
  let cancelFaults = (): void => {};
  return {
    server,
    delivery,
    streams,
    listen: async () => {
      const address = await listen(server, config.host, config.port);
      cancelFaults = scheduleFaults(config.faults, settings);
      return address;
    },
    stats: () => ({
      openStreams: streams.openStreams,
      openChatStreams: streams.openChatStreams,
      openMainStreams: streams.openStreams - streams.openChatStreams,
      streamHandles: streams.handles,
      eventsSent: counters.eventsSent,
      keepAlivesSent: counters.keepAlivesSent,
      requests: counters.requests,
      keepAliveLateMs: streams.keepAliveLateness(),
    }),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        cancelFaults();
        delays.cancelAll();
        streams.closeAll();
        // Streams end with the server: their lines are written before the log closes.
        void closeServer()
          .then(() => app.traceLog?.close())
          .then(resolve);
      });
      return closing;
    },
  };
}

function listen(server: NetServer, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(new StartError(`the reference target cannot listen on ${host}:${port} (${error.code ?? error.message})`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}
