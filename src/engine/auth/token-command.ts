/**
 * `--token-command` (docs/design.md §2.13): a shell command that prints fresh bearer tokens,
 * the same idea as AWS `credential_process` or kubectl exec credentials. It prints either one
 * token (every participant's) or JSON: `{ "token"?, "coachToken"?, "participants"?: { userId: token } }`.
 * Its output is never shown; its stderr is, with every secret masked.
 */
import { redact } from '../../util/redact.js';
import { spawnGuardedShell } from './guarded-shell.js';

/** New tokens: `token` for every participant, `participants` by user id (wins over `token`), the coach's. */
export interface CredentialUpdate {
  token?: string;
  coachToken?: string;
  participants?: ReadonlyMap<string, string>;
}

/** A failed refresh; `message` is one line, safe to print (secrets masked). */
export class TokenCommandError extends Error {}

/** A command that has not answered in this long is killed (by its PID) and the refresh fails. */
export const TOKEN_COMMAND_TIMEOUT_MS = 30_000;
// 19,000 participants' tokens in JSON are about 1 MiB; anything far beyond is not a token answer.
const MAX_STDOUT_BYTES = 64 * 1024 * 1024;
/**
 * One token's bound (docs/design.md §2.13): well above real JWTs and about what servers take
 * in one header line, so a larger token is a failed refresh named here, not a 431 blamed on
 * the target and a driver bloated by one copy per participant.
 */
export const MAX_TOKEN_BYTES = 8 * 1024;
const STDERR_TAIL_CHARS = 400;

/** How the command is named in an error when the caller does not say: the flag. */
const DEFAULT_NAME = '--token-command';

const TOKEN_TEXT = /^[\x21-\x7e]+$/;
// Token-shaped values in what a failing command printed: `"token": "x"`, `token=x`, `Bearer x`.
const TOKEN_FIELDS = /((?:token|access_token|id_token)["']?\s*[:=]\s*["']?|Bearer\s+)[^\s"',;}]+/giu;

const isToken = (value: unknown): value is string => typeof value === 'string' && TOKEN_TEXT.test(value);

/** Refuses a token over MAX_TOKEN_BYTES (printable ASCII: one byte a character); `what` names it. */
function checkSize(token: string, what: string, name: string): void {
  if (token.length > MAX_TOKEN_BYTES) {
    throw new TokenCommandError(`${name} printed ${what} of ${token.length} bytes, over the ${MAX_TOKEN_BYTES / 1024} KiB limit for one token`);
  }
}

/**
 * Parses what the command printed; throws TokenCommandError saying what is wrong (never the
 * value). `name` is where the command was given (`--token-command` or COACHBENCH_TOKEN_COMMAND).
 */
export function parseTokenOutput(stdout: string, name = DEFAULT_NAME): CredentialUpdate {
  const text = stdout.trim();
  if (text === '') throw new TokenCommandError(`${name} printed no token`);
  if (!text.startsWith('{')) {
    if (!isToken(text)) throw new TokenCommandError(`${name} printed more than one token (expected one token, or a JSON object)`);
    checkSize(text, 'a token', name);
    return { token: text };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new TokenCommandError(`${name} printed JSON that does not parse`);
  }
  const record = data as Record<string, unknown>;
  const update: CredentialUpdate = {};
  for (const key of ['token', 'coachToken'] as const) {
    if (record[key] === undefined) continue;
    if (!isToken(record[key])) throw new TokenCommandError(`${name}: "${key}" must be a token (printable, no spaces)`);
    checkSize(record[key], `a "${key}"`, name);
    update[key] = record[key];
  }
  if (record.participants !== undefined) {
    const entries = typeof record.participants === 'object' && record.participants !== null ? Object.entries(record.participants) : null;
    if (entries === null || Array.isArray(record.participants)) throw new TokenCommandError(`${name}: "participants" must be an object of user id → token`);
    const bad = entries.find(([, token]) => !isToken(token));
    if (bad) throw new TokenCommandError(`${name}: participants["${bad[0]}"] must be a token (printable, no spaces)`);
    const big = entries.find(([, token]) => (token as string).length > MAX_TOKEN_BYTES);
    if (big) checkSize(big[1] as string, `participants["${big[0]}"]`, name);
    update.participants = new Map(entries as Array<[string, string]>);
  }
  if (update.token === undefined && update.coachToken === undefined && update.participants === undefined) {
    throw new TokenCommandError(`${name} printed JSON without "token", "coachToken" or "participants"`);
  }
  return update;
}

/** `stderr`'s last lines as one line, with registered secrets, `known` tokens and token-shaped values masked. */
export function maskedStderr(stderr: string, known: Iterable<string>): string {
  let text = stderr;
  for (const token of known) if (token.length >= 4 && text.includes(token)) text = text.split(token).join('***');
  text = redact(text).replace(TOKEN_FIELDS, '$1***');
  const line = text.trim().split('\n').slice(-3).join(' / ').replace(/\s+/g, ' ');
  return line.length > STDERR_TAIL_CHARS ? `…${line.slice(-STDERR_TAIL_CHARS)}` : line;
}

/**
 * Runs `command` in a shell and parses its output. `known` are the tokens held now, masked
 * in its stderr if it fails. Rejects with a TokenCommandError (one printable line).
 */
export function runTokenCommand(
  command: string,
  known: () => Iterable<string>,
  options: { timeoutMs?: number; signal?: AbortSignal; name?: string } = {},
): Promise<CredentialUpdate> {
  const timeoutMs = options.timeoutMs ?? TOKEN_COMMAND_TIMEOUT_MS;
  const name = options.name ?? DEFAULT_NAME;
  return new Promise((resolve, reject) => {
    // Its own process group: a shell's children (curl, an SDK) hold the pipes open, so a
    // command that hangs is ended as a group, by the PID of the guard started here; the guard
    // ends the group itself when this process dies without doing so (SIGKILL).
    const child = spawnGuardedShell(command);
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let settled = false;
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const fail = (what: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      const said = maskedStderr(stderr, [...known(), ...tokensIn(Buffer.concat(stdout).toString())]);
      reject(new TokenCommandError(`${name} ${what}${said ? `: ${said}` : ''}`));
    };
    const onAbort = (): void => {
      killGroup();
      fail('was stopped with the run');
    };
    const timer = setTimeout(() => {
      killGroup();
      fail(`did not answer within ${timeoutMs >= 1_000 ? `${Math.round(timeoutMs / 1_000)} s` : `${timeoutMs} ms`} and was killed`);
    }, timeoutMs);
    // `signal` ends a run still going when the load stops: nothing waits for it any more.
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes <= MAX_STDOUT_BYTES) stdout.push(chunk);
      else {
        killGroup();
        fail(`printed more than ${MAX_STDOUT_BYTES / 1024 / 1024} MiB`);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-16_384);
    });
    child.on('error', (error) => fail(`could not start (${(error as NodeJS.ErrnoException).code ?? error.message})`));
    child.on('close', (code, signal) => {
      if (code !== 0) return fail(signal ? `was ended by ${signal}` : `failed (exit ${code})`);
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      try {
        resolve(parseTokenOutput(Buffer.concat(stdout).toString(), name));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** The token values a (possibly malformed) answer holds, to mask them in the stderr shown. */
function tokensIn(stdout: string): string[] {
  try {
    const update = parseTokenOutput(stdout);
    return [update.token, update.coachToken, ...(update.participants?.values() ?? [])].filter((t): t is string => t !== undefined);
  } catch {
    return stdout.split(/\s+/).filter((word) => word.length >= 8);
  }
}
