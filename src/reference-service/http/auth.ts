/**
 * docs/design.md §4 auth: `X-API-Key` must match (401), `Authorization: Bearer <token>` must name a
 * known principal (401), the role must be allowed (403), and a participant may only reach
 * its own `/participants/{user_id}/...` paths (403).
 */

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Principal } from '../state/store-types.js';
import type { TargetStore } from '../state/target-store.js';
import type { RouteAccess } from '../target-app.js';
import { HttpProblem } from './problem.js';

const CHALLENGE = { 'www-authenticate': 'Bearer realm="coachbench"' };

const unauthorized = (detail: string): HttpProblem => new HttpProblem(401, 'unauthorized', detail, CHALLENGE);
// RFC 6750 §3: the error a client reads to know that a new token will do.
const EXPIRED = { 'www-authenticate': 'Bearer realm="coachbench", error="invalid_token", error_description="the token expired"' };

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Throws the 401 unless the request carries the target's API key. */
export function requireApiKey(req: IncomingMessage, store: TargetStore): void {
  const apiKey = req.headers['x-api-key'];
  if (apiKey === undefined || apiKey === '') throw unauthorized('the X-API-Key header is missing');
  if (typeof apiKey !== 'string' || !sameSecret(apiKey, store.apiKey)) throw unauthorized('the X-API-Key header is not valid');
}

/** Returns the request's principal or throws the 401/403 problem. Never echoes a secret. */
export function authenticate(req: IncomingMessage, store: TargetStore, access: RouteAccess, params: Readonly<Record<string, string>>): Principal {
  requireApiKey(req, store);
  const authorization = req.headers.authorization;
  if (!authorization) throw unauthorized('the Authorization header is missing (expected Bearer <token>)');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw unauthorized('the Authorization header is not a Bearer token');
  const principal = store.principalOf(match[1] as string);
  if (principal === 'expired') throw new HttpProblem(401, 'unauthorized', 'the bearer token expired', EXPIRED);
  if (!principal) throw unauthorized('the bearer token is not valid');
  if (!access.roles.includes(principal.role)) {
    throw new HttpProblem(403, 'forbidden', `this operation requires one of the roles: ${access.roles.join(', ')}`);
  }
  if (principal.role === 'participant') {
    const owner = access.participantParam === undefined ? undefined : params[access.participantParam];
    if (owner !== principal.userId) throw new HttpProblem(403, 'forbidden', 'a participant may only access its own /participants/{user_id} paths');
  }
  return principal;
}
