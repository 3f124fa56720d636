/**
 * Resolves what a run talks to: the embedded reference target (started in-process on a free
 * loopback port) or an external `--target` with its fixtures. Also checks, before load
 * starts, that the target is reachable and takes the run's credentials, so an unreachable
 * target or a refused key exits 3 instead of producing a report of errors.
 */
import { proxyRefusalStatus } from '../contract/failure-codes.js';
import type { KeepAliveExpectation } from '../contract/keep-alive.js';
import { DEFAULT_KEEPALIVE_MS, resolveTolerance } from '../contract/profile/resolve-profile.js';
import { renewBeforeRun } from '../engine/auth/credentials.js';
import { TokenCommandError } from '../engine/auth/token-command.js';
import { createRequestAgent, NO_H2_CODE, NO_H2_REASON } from '../engine/http-agent.js';
import { proxyFor, proxyVariableFor, shownProxy } from '../engine/proxy-route.js';
import type { RunFixtures } from '../engine/scenario.js';
import { defaultTransport, type Transport } from '../engine/transport.js';
import type { RunningTarget } from '../reference-service/target-types.js';
import { ConfigError, StartError } from '../util/errors.js';
import { registerParticipantTokens, registerSecret } from '../util/redact.js';
import { credentialSources, PREFLIGHT_REQUEST_MS, preflightCredentials } from './preflight-credentials.js';
import { answeredInApisPlace, proxyStatusLine, proxyUnreachable, refuseClosedModelBehindProxy } from './preflight-proxy.js';
import type { RunConfig } from './run-config.js';

/** A capacity search over participants needs fixtures for its largest step. */
function searchedParticipants(profile: RunConfig['profile']): number {
  const search = profile.search;
  return search?.variable === 'chatStreams.participants' && typeof search.max === 'number' ? Math.ceil(search.max) : 0;
}

export interface ResolvedTarget {
  url: string;
  /** The run's transport, trusting the embedded target's own certificate when it serves HTTPS. */
  transport: Transport;
  embedded: RunningTarget | null;
  fixtures: RunFixtures;
  keepAlive: KeepAliveExpectation;
}

/** `stop`: a stop signal ends the first --token-command at once (docs/design.md §2.8). */
export async function resolveTarget(config: RunConfig, stop?: AbortSignal): Promise<ResolvedTarget> {
  const { profile } = config;
  let embedded: RunningTarget | null = null;
  let fixtures: RunFixtures;
  let url: string;
  if (config.targetUrl === null) {
    try {
      // The reference service's modules load only for runs that embed it (their cost: docs/benchmarks.md).
      const { startTarget } = await import('../reference-service/start-target.js');
      embedded = await startTarget({
        keepAliveMs: profile.target.keepAliveMs,
        participants: Math.max(profile.target.participants, profile.chatStreams.participants, searchedParticipants(profile)),
        sessionsPerParticipant: profile.target.sessionsPerParticipant,
        seed: profile.target.seed,
        faults: profile.target.faults,
        ...(profile.target.tls ? { tls: profile.target.tls } : {}),
        ...(profile.target.sseRetryMs !== null ? { sseRetryMs: profile.target.sseRetryMs } : {}),
        ...(profile.target.http2 ? { http2: true } : {}),
      });
    } catch (error) {
      // A fault or option the target refuses came from the profile: bad input (exit 2), not a failed start.
      if (error instanceof ConfigError) throw new ConfigError(`profile target: ${error.message}`);
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
    try {
      await renewBeforeRun(fixtures, config.credentials, stop);
    } catch (error) {
      if (!(error instanceof TokenCommandError)) throw error;
      throw new StartError(`${error.message}; the run did not start`);
    }
  }
  registerParticipantTokens(fixtures.participants.map((participant) => participant.token));
  const expectKeepAliveMs = config.expectKeepAliveMs ?? embedded?.keepAliveMs ?? DEFAULT_KEEPALIVE_MS;
  const certificate = embedded?.certificate ?? null;
  const transport =
    certificate === null ? config.transport : { ...config.transport, tls: { ...config.transport.tls, ca: [...config.transport.tls.ca, certificate] } };
  return {
    url,
    transport,
    embedded,
    fixtures,
    keepAlive: {
      intervalMs: expectKeepAliveMs,
      // A tolerance given as a percentage follows the interval the run actually expects.
      toleranceMs: resolveTolerance(profile.keepAliveToleranceText ?? undefined, expectKeepAliveMs, `${profile.source}: keepAliveTolerance`),
    },
  };
}

/** OpenSSL's verification failures that more trust fixes, and the ones a name fixes. */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

/** The flag that fixes a TLS failure, in words a user can act on (docs/design.md §2.12). */
export function tlsHint(code: string): string | null {
  if (UNTRUSTED.has(code))
    return "its certificate is not signed by a CA this run trusts: give the CA's certificate with --ca FILE (or --insecure to skip verification, for a throwaway test only)";
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'its certificate is for another name: give that name with --servername NAME';
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return 'its certificate is outside its validity period (check the clocks, or renew it)';
  if (code === 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED' || code === 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE') {
    return 'it asked for a client certificate: give one with --cert FILE --key FILE';
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER') return 'it does not speak TLS on that port: check http:// against https://';
  if (code === NO_H2_CODE) return `it ${NO_H2_REASON}`;
  return null;
}

/** The reachability check's whole bound: its connect's timeout and its headers' after it (docs/design.md §2.2). */
const PREFLIGHT_REACHABLE_MS = 2 * PREFLIGHT_REQUEST_MS;

/**
 * Any answer of the target proves it reachable; a network or TLS error is exit 3, with the
 * flag that fixes it when there is one. Behind a proxy, a refusal or an answer the proxy made
 * itself names the proxy and its status (docs/design.md §2.12), never the target.
 */
export async function preflight(url: string, transport: Transport = defaultTransport(), env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const dispatcher = createRequestAgent(transport, 1);
  const proxy = proxyFor(transport, url, env);
  const probe = new URL(`${url}/api/v1/participants`);
  // The connect and the headers have a timeout each; this bounds whatever else it waits on: a
  // proxy that takes the connection and never answers its CONNECT (undici's own bound there is its default headers timeout).
  const deadline = AbortSignal.timeout(PREFLIGHT_REACHABLE_MS);
  try {
    const response = await dispatcher.request({
      origin: probe.origin,
      path: probe.pathname,
      method: 'OPTIONS',
      headersTimeout: PREFLIGHT_REQUEST_MS,
      signal: deadline,
    });
    // The headers are the answer that proves the target reachable: its body, which a target
    // may trickle forever, is not waited for (the dispatcher is destroyed below).
    response.body.on('error', () => undefined).destroy();
    const inPlace = answeredInApisPlace(proxy, url, 'OPTIONS', probe, response);
    if (inPlace !== null) throw new StartError(inPlace);
  } catch (error) {
    if (error instanceof StartError) throw error;
    const refused = proxyRefusalStatus(error);
    if (refused !== null) throw new StartError(proxyStatusLine(proxy, url, refused));
    const cause = (error as { cause?: unknown }).cause;
    const code = deadline.aborted
      ? `no answer within ${PREFLIGHT_REACHABLE_MS / 1_000} s`
      : ((error as { code?: string }).code ?? (cause as { code?: string } | undefined)?.code ?? (error as Error).message);
    if (proxy !== null && !deadline.aborted && proxyUnreachable(error)) {
      const from = transport.proxy.mode === 'url' ? '--proxy' : proxyVariableFor(url, env);
      throw new StartError(`proxy ${shownProxy(proxy)} (from ${from}) is not reachable (${code}), so target ${url} was not tried`);
    }
    const closedOnTls = url.startsWith('https:') && transport.tls.cert === null && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET');
    // Over TLS 1.3 a server that wants a client certificate just closes the connection after the handshake.
    const hint = closedOnTls ? 'it closed the TLS connection; if it requires a client certificate, give one with --cert FILE --key FILE' : tlsHint(code);
    const via = proxy === null ? '' : ` through proxy ${shownProxy(proxy)}`;
    throw new StartError(`target ${url} is not reachable${via} (${code})${hint ? `: ${hint}` : ''}`);
  } finally {
    await dispatcher.destroy().catch(() => undefined);
  }
}

/**
 * Everything checked before any load, in order (docs/design.md §2.2): a closed model behind
 * a proxy (exit 2), the target reachable through the transport (exit 3, naming the proxy
 * when it is the one that refused), then one authenticated request per credential kind
 * (exit 3, naming the credential). Cheap enough to run for the embedded target too.
 */
export async function preflightTarget(
  target: ResolvedTarget,
  config: RunConfig,
  say: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  refuseClosedModelBehindProxy(config.profile, target.transport, target.url, env);
  const { sources, keyNote } = credentialSources(config, { embedded: target.embedded !== null, fixtures: target.fixtures }, env);
  if (keyNote !== null) say(keyNote);
  await preflight(target.url, target.transport, env);
  const { profile } = config;
  const kindsUseCoach = (profile.requests?.kinds ?? []).some((kind) => kind.enabled && kind.credential === 'coach');
  const coach = profile.tagLink.enabled || kindsUseCoach || (profile.chatStreams.enabled && profile.chatStreams.churnRatePerSec > 0);
  const proxy = proxyFor(target.transport, target.url, env);
  await preflightCredentials({ url: target.url, transport: target.transport, proxy, fixtures: target.fixtures, coach, sources });
}
