/**
 * Resolves what a run talks to: the embedded reference target (started in-process on a free
 * loopback port) or an external `--target` with its fixtures. Also checks reachability
 * before load starts, so an unreachable target exits 3 instead of producing a report of errors.
 */
import { request } from 'undici';
import type { KeepAliveExpectation } from '../contract/keep-alive.js';
import { DEFAULT_KEEPALIVE_MS, resolveTolerance } from '../contract/profile/resolve-profile.js';
import type { RunFixtures } from '../engine/scenario.js';
import { startTarget } from '../reference-service/start-target.js';
import type { RunningTarget } from '../reference-service/target-types.js';
import { StartError } from '../util/errors.js';
import { registerSecret } from '../util/redact.js';
import type { RunConfig } from './run-config.js';

/** A capacity search over participants needs fixtures for its largest step. */
function searchedParticipants(profile: RunConfig['profile']): number {
  const search = profile.search;
  return search?.variable === 'chatStreams.participants' && typeof search.max === 'number' ? Math.ceil(search.max) : 0;
}

export interface ResolvedTarget {
  url: string;
  embedded: RunningTarget | null;
  fixtures: RunFixtures;
  keepAlive: KeepAliveExpectation;
}

export async function resolveTarget(config: RunConfig): Promise<ResolvedTarget> {
  const { profile } = config;
  let embedded: RunningTarget | null = null;
  let fixtures: RunFixtures;
  let url: string;
  if (config.targetUrl === null) {
    try {
      embedded = await startTarget({
        keepAliveMs: profile.target.keepAliveMs,
        participants: Math.max(profile.target.participants, profile.chatStreams.participants, searchedParticipants(profile)),
        sessionsPerParticipant: profile.target.sessionsPerParticipant,
        seed: profile.target.seed,
        faults: profile.target.faults,
      });
    } catch (error) {
      throw new StartError(`the embedded target could not start: ${(error as Error).message}`);
    }
    url = embedded.url;
    fixtures = embedded.fixtures;
    registerSecret(fixtures.apiKey);
    registerSecret(fixtures.coachToken);
  } else {
    url = config.targetUrl;
    fixtures = { ...config.fixtures!, apiKey: config.apiKey! };
    if (config.coachToken) fixtures.coachToken = config.coachToken;
  }
  const expectKeepAliveMs = config.expectKeepAliveMs ?? embedded?.keepAliveMs ?? DEFAULT_KEEPALIVE_MS;
  return {
    url,
    embedded,
    fixtures,
    keepAlive: {
      intervalMs: expectKeepAliveMs,
      // A tolerance given as a percentage follows the interval the run actually expects.
      toleranceMs: resolveTolerance(profile.keepAliveToleranceText ?? undefined, expectKeepAliveMs, `${profile.source}: keepAliveTolerance`),
    },
  };
}

/** Any HTTP answer proves the target reachable; a network error is exit 3. */
export async function preflight(url: string): Promise<void> {
  try {
    const response = await request(`${url}/api/v1/participants`, { method: 'OPTIONS', headersTimeout: 10_000, bodyTimeout: 10_000 });
    await response.body.dump();
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).message;
    throw new StartError(`target ${url} is not reachable (${code})`);
  }
}
