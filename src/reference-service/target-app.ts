/** The shared state every route handler sees, and the route definition shape. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultSettings } from './faults/faults.js';
import type { Responder } from './http/http-reply.js';
import type { TraceLog } from './http/trace-log.js';
import type { CommandBus } from './state/commands/command-types.js';
import type { Principal, Role } from './state/store-types.js';
import type { TargetStore } from './state/target-store.js';
import type { StreamRegistry } from './streams/stream-registry.js';

/** State shared by every route of one target. */
export interface TargetApp {
  store: TargetStore;
  reply: Responder;
  /** Every mutation goes through here (applied at once, or by the primary under `--workers`). */
  commands: CommandBus;
  streams: StreamRegistry;
  faults: FaultSettings;
  keepAliveMs: number;
  sessionsPerParticipant: number;
  /** Tokens expire (`serve --token-ttl`): POST /_coachbench/tokens issues new ones. */
  tokensExpire: boolean;
  /** Under `--workers`: this worker's number, sent as `X-Coachbench-Worker` on every answer. */
  workerLabel?: string;
  /** `serve --log-traces FILE`: a line per request that carried a traceparent. */
  traceLog?: TraceLog;
}

/** What a route handler gets for one authenticated request. */
export interface RequestContext {
  app: TargetApp;
  req: IncomingMessage;
  res: ServerResponse;
  /** Decoded path parameters. */
  params: Readonly<Record<string, string>>;
  principal: Principal;
  /** The request path without the query, for problem `instance`. */
  path: string;
  /** Headers added to every answer of this request, errors included (e.g. Deprecation). */
  extraHeaders: Record<string, string>;
}

/** A route handler; it answers through replyJson / replyEmpty or throws an HttpProblem. */
export type Handler = (ctx: RequestContext) => void | Promise<void>;

/** Who may call a route. */
export interface RouteAccess {
  roles: readonly Role[];
  /** The path parameter holding a participant id: a participant token may only use its own. */
  participantParam?: string;
}

/** One route of the API. */
export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under /api/v1 with `:name` parameters, e.g. `/participants/:userId/stream`. */
  pattern: string;
  access: RouteAccess;
  /** For deprecated 1.2.x routes: the successor's path, sent as `Link: <...>; rel="successor-version"`. */
  successor?: (params: Readonly<Record<string, string>>) => string;
  handler: Handler;
}

/** Every role. */
export const ANY_ROLE: readonly Role[] = ['participant', 'coach', 'connector'];
/** Coach and connector. */
export const STAFF_ROLES: readonly Role[] = ['coach', 'connector'];

/** Routes under /participants/:userId: the participant itself, coaches and connectors. */
export const PARTICIPANT_SCOPED: RouteAccess = { roles: ANY_ROLE, participantParam: 'userId' };
export const STAFF_ONLY: RouteAccess = { roles: STAFF_ROLES };
