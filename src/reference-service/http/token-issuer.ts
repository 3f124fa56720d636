/**
 * `POST /_coachbench/tokens`, the reference target's stand-in for an identity provider
 * (docs/target.md "Expiring tokens"): with the API key, it answers a fresh bearer token for
 * every principal, in the shape `coachbench run --token-command` reads. Outside /api/v1 on
 * purpose: the API description has no such endpoint, as a real target's tokens come from
 * its own identity provider.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { COACH_ID, CONNECTOR_ID } from '../state/seed-data.js';
import type { Role } from '../state/store-types.js';
import type { TargetApp } from '../target-app.js';
import { requireApiKey } from './auth.js';
import { HttpProblem } from './problem.js';

export const TOKENS_PATH = '/_coachbench/tokens';

/** What the token endpoint answers; `participants` maps user ids to their new tokens. */
export interface IssuedTokens {
  coachToken: string;
  connectorToken: string;
  participants: Record<string, string>;
}

// The seeded tokens' prefixes (docs/target.md), so a token still says whose it is.
const PREFIX: Record<Role, string> = { participant: 'pt_', coach: 'ct_', connector: 'kt_' };

/** Answers a token request; throws the HttpProblem (401 without the key, 405 for another method). */
export function answerTokenRequest(app: TargetApp, req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  if (req.method !== 'POST') throw new HttpProblem(405, 'method-not-allowed', `${req.method} is not allowed here`, { allow: 'POST' });
  requireApiKey(req, app.store);
  const issued = app.store.issueTokens((principal) => `${PREFIX[principal.role]}${randomBytes(16).toString('hex')}`);
  const body: IssuedTokens = { coachToken: '', connectorToken: '', participants: {} };
  for (const [id, token] of issued) {
    if (id === COACH_ID) body.coachToken = token;
    else if (id === CONNECTOR_ID) body.connectorToken = token;
    else body.participants[id] = token;
  }
  app.reply.json(res, 200, body, { 'cache-control': 'no-store' });
}
