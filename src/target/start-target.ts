/**
 * startTarget(): the reference target as a library. Seeds the store, starts a node:http
 * server on loopback (port 0 by default) and returns its URL, fixtures, stats and close().
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, StartError } from '../util/errors.js';
import { registerSecret } from '../util/redact.js';
import { handleClientError } from './client-error.js';
import { createDispatcher } from './dispatch.js';
import { LocalEventDelivery } from './event-delivery.js';
import { normaliseFaults, resolveFaults } from './faults.js';
import { Responder } from './http-reply.js';
import { DelayScheduler } from './precise-delay.js';
import { Router } from './router.js';
import { ALL_ROUTES } from './routes/all-routes.js';
import { seedTarget } from './seed-data.js';
import { LocalStreamHub } from './stream-hub.js';
import { StreamRegistry } from './stream-registry.js';
import type { TargetApp } from './target-app.js';
import type { RunningTarget, TargetOptions } from './target-types.js';

const DEFAULTS = { host: '127.0.0.1', port: 0, keepAliveMs: 15_000, participants: 100, sessionsPerParticipant: 3, seed: 1 };

function checkInteger(value: number, name: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${name} must be an integer in ${min}..${max}, got ${value}`);
  return value;
}

/** Starts the reference target. Rejects with ConfigError on bad options, StartError if it cannot listen. */
export async function startTarget(options: TargetOptions = {}): Promise<RunningTarget> {
  const host = options.host ?? DEFAULTS.host;
  const port = checkInteger(options.port ?? DEFAULTS.port, 'port', 0, 65_535);
  const keepAliveMs = options.keepAliveMs ?? DEFAULTS.keepAliveMs;
  if (!Number.isFinite(keepAliveMs) || keepAliveMs < 10) throw new ConfigError(`keepalive must be at least 10ms, got ${keepAliveMs}`);
  const faults = normaliseFaults(options.faults ?? []);
  const settings = resolveFaults(faults);
  const seeded = seedTarget({
    seed: checkInteger(options.seed ?? DEFAULTS.seed, 'seed', 0, 2 ** 32 - 1),
    participants: checkInteger(options.participants ?? DEFAULTS.participants, 'participants', 1, 1_000_000),
    sessionsPerParticipant: checkInteger(options.sessionsPerParticipant ?? DEFAULTS.sessionsPerParticipant, 'sessions', 1, 1_000),
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
  });
  for (const secret of [seeded.store.apiKey, seeded.coachToken, seeded.connectorToken]) registerSecret(secret);

  const counters = { eventsSent: 0, keepAlivesSent: 0, requests: 0 };
  const delays = new DelayScheduler();
  const hub = new LocalStreamHub();
  const streams = new StreamRegistry(hub, settings, keepAliveMs, counters);
  const app: TargetApp = {
    store: seeded.store,
    reply: new Responder(delays, settings.latencyMs),
    events: new LocalEventDelivery(hub, settings, delays),
    streams,
    faults: settings,
    keepAliveMs,
    sessionsPerParticipant: options.sessionsPerParticipant ?? DEFAULTS.sessionsPerParticipant,
  };
  const server = createServer({ noDelay: true }, createDispatcher(app, new Router(ALL_ROUTES), counters));
  server.on('clientError', handleClientError);
  await listen(server, host, port);
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | null = null;

  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    keepAliveMs,
    faults,
    fixtures: { apiKey: seeded.store.apiKey, coachToken: seeded.coachToken, participants: seeded.participants },
    connectorToken: seeded.connectorToken,
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
    resetKeepAliveLateness: () => streams.resetKeepAliveLateness(),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        delays.cancelAll();
        streams.closeAll();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(new StartError(`the reference target cannot listen on ${host}:${port} (${error.code ?? error.message})`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
