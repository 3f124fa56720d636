/**
 * Secrets never reach a report, log or error message (docs/design.md §2).
 * Every string that leaves the process through an error path goes through here.
 *
 * Only registered secret values, registered participant tokens and bearer tokens in
 * authorization headers are masked. Nothing is masked by pattern alone: "without X-API-Key:
 * 500" is a finding, not a key.
 */

import { SubstringSet } from './substring-set.js';

/** A secret shorter than this cannot be told from ordinary text; it is not registered. */
const MIN_SECRET_LENGTH = 4;

/**
 * A secret this long that holds a digit or a symbol is no part of any word, so it is masked
 * even glued to other text (`key%3D<secret>`). Shorter or letters-only secrets could be a
 * piece of a word ("probe" in "probes") and are masked only where they stand alone.
 */
const STANDALONE_LENGTH = 12;

const WORD_CHAR = String.raw`[\p{L}\p{N}_]`;

/** `authorization: Bearer X`, `"authorization":"Bearer X"`, `{ authorization: 'Bearer X' }`. */
const BEARER_HEADER = /(authorization["']?\s*[:=]\s*["']?\s*Bearer\s+)[^\s"',;}]+/giu;

const secrets = new Map<string, RegExp>();

/**
 * Participants' bearer tokens: thousands of them, so not one pattern each (every redact would
 * scan the text once per token). They go into one SubstringSet, which finds any of them
 * anywhere in a text in one pass, whatever characters a token holds (`/`, `+`, `=`, `.`,
 * non-ASCII) and whatever stands around it.
 */
const participantTokens = new SubstringSet();

const asciiJson = (text: string): string => text.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The forms a target may echo a token in: as it is, percent-encoded (a URL it builds), and
 * JSON-escaped as common encoders write it (`\/` for `/`, `\uXXXX` for non-ASCII).
 */
function echoForms(token: string): string[] {
  let uri = token;
  try {
    uri = encodeURIComponent(token);
  } catch {
    // A lone surrogate has no UTF-8 form, so no percent-encoded one either.
  }
  const json = asciiJson(token);
  return [token, uri, token.replaceAll('/', '\\/'), json, json.replaceAll('/', '\\/')];
}

// Syntax characters only: in a `u` regular expression any other escape is an error.
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function patternFor(secret: string): RegExp {
  const escaped = escapeRegExp(secret);
  const wordLike = secret.length < STANDALONE_LENGTH || /^\p{L}+$/u.test(secret);
  if (!wordLike) return new RegExp(escaped, 'gu');
  // Word boundaries only where the secret itself begins or ends with a word character.
  const before = new RegExp(`^${WORD_CHAR}`, 'u').test(secret) ? `(?<!${WORD_CHAR})` : '';
  const after = new RegExp(`${WORD_CHAR}$`, 'u').test(secret) ? `(?!${WORD_CHAR})` : '';
  return new RegExp(`${before}${escaped}${after}`, 'gu');
}

/** Registers a secret (API key, token) so that `redact` masks it. Strings under 4 characters are ignored. */
export function registerSecret(value: string | undefined | null): void {
  if (!value || value.length < MIN_SECRET_LENGTH) return;
  hold(secretHolds, value);
  if (!secrets.has(value)) secrets.set(value, patternFor(value));
}

/** Undoes one registerSecret of `value`: once no registration holds it, it is no longer masked. */
export function releaseSecret(value: string): void {
  if (value.length >= MIN_SECRET_LENGTH && letGo(secretHolds, value)) secrets.delete(value);
}

/**
 * How many registrations hold each form of a participant token, and each secret a renewal
 * registered: a renewal's tokens are released once the run no longer holds them
 * (engine/auth/credentials.ts), and a form goes when its last holder lets it go, so a soak
 * that renews its tokens every few minutes keeps masking a bounded set (docs/design.md §2.13).
 */
const tokenHolds = new Map<string, number>();
const secretHolds = new Map<string, number>();

const hold = (holds: Map<string, number>, key: string): void => {
  holds.set(key, (holds.get(key) ?? 0) + 1);
};

/** One registration fewer of `key`; true when that was the last. */
const letGo = (holds: Map<string, number>, key: string): boolean => {
  const left = (holds.get(key) ?? 0) - 1;
  if (left > 0) holds.set(key, left);
  else holds.delete(key);
  return left <= 0;
};

/** Registers participants' tokens (fixtures, renewals) so that `redact` masks them, and their echoed forms, wherever they occur. */
export function registerParticipantTokens(tokens: Iterable<string>): void {
  for (const token of tokens) {
    if (token.length < MIN_SECRET_LENGTH) continue;
    for (const form of echoForms(token)) {
      hold(tokenHolds, form);
      participantTokens.add(form);
    }
  }
}

/** Undoes one registerParticipantTokens of each token: a form no registration holds any more is no longer masked. */
export function releaseParticipantTokens(tokens: Iterable<string>): void {
  for (const token of tokens) {
    if (token.length < MIN_SECRET_LENGTH) continue;
    for (const form of echoForms(token)) if (letGo(tokenHolds, form)) participantTokens.delete(form);
  }
}

/** How many participant-token forms are masked now (each token counts up to five, §2.7). */
export const maskedTokenForms = (): number => participantTokens.size;

/** The registered secrets, to hand to a worker process so it redacts the same values. */
export function secretsSnapshot(): string[] {
  return [...secrets.keys()];
}

/**
 * The start of `text`, masked, long enough that its first `maxChars` characters hold no piece
 * of a secret: for an excerpt of a large text (an SSE frame, a photoUrl) that is cut after
 * masking, since a token cut in two first would no longer be found. Every mask (`***`) stands
 * for a whole secret, so `maxChars` characters of the result cover at most `maxChars / 3`
 * secrets and `maxChars` other characters of `text`; one more secret's length covers one
 * that straddles the end.
 */
export function redactedStart(text: string, maxChars: number): string {
  let longest = participantTokens.longest;
  for (const secret of secrets.keys()) longest = Math.max(longest, secret.length);
  const needed = maxChars + (Math.ceil(maxChars / 3) + 1) * longest;
  return redact(text.length <= needed ? text : text.slice(0, needed));
}

/** `text` with every registered secret, participant token and bearer token in an authorization header replaced by `***`. */
export function redact(text: string): string {
  let out = text;
  // Longest first, so a secret that contains another is masked whole.
  for (const [secret, pattern] of [...secrets].sort(([a], [b]) => b.length - a.length)) {
    if (out.includes(secret)) out = out.replace(pattern, '***');
  }
  out = participantTokens.mask(out, '***');
  return out.replace(BEARER_HEADER, '$1***');
}
