/**
 * The credential preflight (docs/design.md §2.2): before any load, one authenticated GET per
 * credential kind the run will use, so a refused key or an expired token is exit 3 naming
 * the credential, where it came from and what the target said, instead of a run of 401s.
 *
 * - the API key and a participant token: GET the first participant's first chat session
 *   (every request carries both; the target's problem says which one it refused);
 * - the coach token, when tags or membership churn will use it: the same GET with it (a
 *   coach may read any participant's session; a 403 there is a role, not a refusal).
 */
import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import { createRequestAgent } from '../engine/http-agent.js';
import type { RunFixtures } from '../engine/scenario.js';
import type { Transport } from '../engine/transport.js';
import { StartError } from '../util/errors.js';
import { printable } from '../util/printable.js';
import { redact } from '../util/redact.js';
import { answeredInApisPlace } from './preflight-proxy.js';
import type { RunConfig } from './run-config.js';

/** Where each credential came from, in words for the messages. */
export interface CredentialSources {
  /** `COACHBENCH_API_KEY`, `the fixtures file F ("apiKey")`, `the embedded target`. */
  apiKey: string;
  /** Where the participant tokens came from (`--token-command`, the fixtures file F, COACHBENCH_TOKEN). */
  participantTokens: string;
  /** Where the coach token came from. */
  coachToken: string;
  /** What renews a refused token: the fix a message ends with. */
  renewal: string;
}

export interface CredentialPreflight {
  url: string;
  transport: Transport;
  fixtures: RunFixtures;
  /** The proxy the target is reached through, or null (engine/proxy-route.ts). */
  proxy: string | null;
  /** True when the run sends the coach token (tags, membership churn) and there is one. */
  coach: boolean;
  sources: CredentialSources;
}

/** The most of a refusal's body read: a problem is small, a hostile answer need not be. */
const BODY_LIMIT = 16 * 1024;
/**
 * Each preflight request's whole bound, from the connect to the body's last byte
 * (docs/design.md §2.2): undici's bodyTimeout is an idle timer that every byte restarts, so a
 * target trickling its body would otherwise hold the run before any load for as long as it liked.
 */
export const PREFLIGHT_REQUEST_MS = 10_000;
/** The most of a title or detail quoted. */
const QUOTE_CHARS = 160;

export interface Refusal {
  status: number;
  challenge: string;
  title: string | null;
  detail: string | null;
}

/** The body's text, at most BODY_LIMIT of it; what came before `deadline` ended the read, when it did. */
async function readCapped(body: Dispatcher.ResponseData['body'], deadline: AbortSignal): Promise<string> {
  let text = '';
  try {
    for await (const chunk of body) {
      text += (chunk as Buffer).toString('utf8');
      if (text.length >= BODY_LIMIT) {
        body.destroy();
        break;
      }
    }
  } catch (error) {
    if (!deadline.aborted) throw error;
  }
  return text.slice(0, BODY_LIMIT);
}

function problemOf(text: string): { title: string | null; detail: string | null } {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return { title: null, detail: null };
    const { title, detail } = parsed as { title?: unknown; detail?: unknown };
    return { title: typeof title === 'string' ? title : null, detail: typeof detail === 'string' ? detail : null };
  } catch {
    return { title: null, detail: null };
  }
}

/** GETs `path` with the key and `token`; resolves with the refusal (401/403) or null. */
async function tryCredentials(dispatcher: Dispatcher, proxy: string | null, url: string, path: string, apiKey: string, token: string): Promise<Refusal | null> {
  const target = new URL(`${url}/api/v1${path}`);
  const deadline = AbortSignal.timeout(PREFLIGHT_REQUEST_MS);
  const response = await dispatcher.request({
    origin: target.origin,
    path: target.pathname,
    method: 'GET',
    headers: { 'x-api-key': apiKey, authorization: `Bearer ${token}`, accept: 'application/json, application/problem+json' },
    headersTimeout: PREFLIGHT_REQUEST_MS,
    bodyTimeout: PREFLIGHT_REQUEST_MS,
    signal: deadline,
  });
  // A proxy's own answer or a gateway's page says nothing of the credentials: it is named as theirs.
  const inPlace = answeredInApisPlace(proxy, url, 'GET', target, response);
  if (inPlace !== null || (response.statusCode !== 401 && response.statusCode !== 403)) {
    // Read to its end for the connection's reuse, or until the deadline destroys it.
    await response.body.dump();
    if (inPlace !== null) throw new StartError(inPlace);
    return null;
  }
  const { title, detail } = problemOf(await readCapped(response.body, deadline));
  const challenge = response.headers['www-authenticate'];
  return { status: response.statusCode, challenge: Array.isArray(challenge) ? challenge.join(', ') : (challenge ?? ''), title, detail };
}

/** `401 Unauthorized, title "…", detail "…"`: the target's own words, secrets masked, invisible characters escaped, capped. */
export function describeRefusal(refusal: Refusal): string {
  const quote = (text: string): string => `"${printable(redact(text), QUOTE_CHARS)}"`;
  const parts = [`${refusal.status}${STATUS_CODES[refusal.status] ? ` ${STATUS_CODES[refusal.status]}` : ''}`];
  if (refusal.title !== null) parts.push(`title ${quote(refusal.title)}`);
  if (refusal.detail !== null) parts.push(`detail ${quote(refusal.detail)}`);
  if (refusal.title === null && refusal.detail === null) parts.push('no problem+json body');
  return parts.join(', ');
}

/**
 * Which credential a refusal of a request carrying both names: the key when its problem
 * speaks of an API key; the token when it speaks of a bearer token or the Authorization
 * header, when an RFC 6750 challenge says `invalid_token`, or on a 403 (the key was taken,
 * the token's principal may not read this participant); else either.
 */
export function refusedCredential(refusal: Refusal): 'api-key' | 'token' | 'either' {
  const said = `${refusal.title ?? ''} ${refusal.detail ?? ''}`.toLowerCase();
  if (/api[-_ ]?key/.test(said)) return 'api-key';
  if (refusal.status === 403 || /invalid_token/i.test(refusal.challenge) || /\b(bearer|token|authorization)\b/.test(said)) return 'token';
  return 'either';
}

/** Exit 3 when the target refuses a credential the run will use; resolves when every one is accepted. */
export async function preflightCredentials({ url, transport, proxy, fixtures, coach, sources }: CredentialPreflight): Promise<void> {
  const first = fixtures.participants[0];
  const session = first?.chatSessionIds[0];
  if (first === undefined || session === undefined) return;
  const path = `/participants/${encodeURIComponent(first.userId)}/chat_sessions/${encodeURIComponent(session)}`;
  const dispatcher = createRequestAgent(transport, 1);
  try {
    const refusal = await tryCredentials(dispatcher, proxy, url, path, fixtures.apiKey, first.token);
    if (refusal !== null) {
      const said = describeRefusal(refusal);
      const token = `participant ${printable(first.userId)}'s token (from ${sources.participantTokens})`;
      const kind = refusedCredential(refusal);
      if (kind === 'api-key') throw new StartError(`the target refused the API key (from ${sources.apiKey}): ${said}; check the key`);
      if (kind === 'token') throw new StartError(`the target refused ${token}: ${said}; ${sources.renewal}`);
      throw new StartError(`the target refused the API key (from ${sources.apiKey}) or ${token}: ${said}; check the key, and ${sources.renewal}`);
    }
    if (coach && fixtures.coachToken) {
      const coachRefusal = await tryCredentials(dispatcher, proxy, url, path, fixtures.apiKey, fixtures.coachToken);
      // A 403 is the coach's role on this participant's session, not a refused token.
      if (coachRefusal !== null && coachRefusal.status === 401) {
        throw new StartError(`the target refused the coach token (from ${sources.coachToken}): ${describeRefusal(coachRefusal)}; ${sources.renewal}`);
      }
    }
  } catch (error) {
    if (error instanceof StartError) throw error;
    // Reachability was proven a moment ago: a request that fails now is the run's to count.
  } finally {
    await dispatcher.destroy().catch(() => undefined);
  }
}

/** Where the run's credentials came from, in words, and the line that says which API key is used when two were given. */
export function credentialSources(
  config: RunConfig,
  target: { embedded: boolean; fixtures: RunFixtures },
  env: NodeJS.ProcessEnv,
): { sources: CredentialSources; keyNote: string | null } {
  if (target.embedded) {
    const embedded = 'the embedded target';
    return { sources: { apiKey: embedded, participantTokens: embedded, coachToken: embedded, renewal: 'the embedded target issued it' }, keyNote: null };
  }
  const file = config.credentials.fixturesPath ?? 'the fixtures file';
  const fromFile = config.fixtures?.apiKey !== undefined;
  const envKey = env.COACHBENCH_API_KEY;
  const keyNote =
    fromFile && envKey
      ? `API key: the one in ${file} ("apiKey"); COACHBENCH_API_KEY is set too and ${envKey === config.fixtures?.apiKey ? 'holds the same key' : 'is not used'}`
      : null;
  const command = config.credentials.tokenCommand !== null;
  const firstToken = target.fixtures.participants[0]?.token;
  const commandName = config.credentials.tokenCommandName ?? '--token-command';
  const participantTokens = command ? commandName : env.COACHBENCH_TOKEN && firstToken === env.COACHBENCH_TOKEN ? 'COACHBENCH_TOKEN' : file;
  const coachToken =
    target.fixtures.coachToken !== config.coachToken
      ? commandName
      : config.fixtures?.coachToken !== undefined
        ? `${file} ("coachToken")`
        : 'COACHBENCH_COACH_TOKEN';
  const renewal = command
    ? 'the token command ran once before this check: check the tokens it prints'
    : `renew the tokens: give --token-command CMD (docs/design.md §2.13), or refresh ${file}`;
  return { sources: { apiKey: fromFile ? `${file} ("apiKey")` : 'COACHBENCH_API_KEY', participantTokens, coachToken, renewal }, keyNote };
}
