/**
 * The bearer tokens of one driver process, renewed while the run goes on (docs/design.md §2.13).
 * Tokens live where the drivers read them when they build a request (each participant's
 * `token`, the fixtures' `coachToken`), so a renewal reaches the next request without
 * restarting anything. A 401 to a token that is still current runs `--token-command` (one
 * run in flight at a time; every request refused meanwhile waits for it); a 401 to a token
 * already replaced is sent again with its successor at once. A 401 to a freshly renewed token
 * is not retried: it is counted as the target refusing what its identity provider issued.
 */
import { unwatchFile, watchFile } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { proxyMark } from '../../contract/failure-codes.js';
import type { Fixtures } from '../../contract/fixtures.js';
import { loadFixtures } from '../../contract/fixtures.js';
import { recordMs } from '../../metrics/histogram.js';
import { MetricSet } from '../../metrics/metric-set.js';
import { AUTH } from '../../metrics/names.js';
import { registerParticipantTokens, registerSecret, releaseParticipantTokens, releaseSecret } from '../../util/redact.js';
import { type CredentialUpdate, runTokenCommand } from './token-command.js';

/** Where new tokens come from; both optional. */
export interface CredentialSources {
  /** `--token-command`: run when a current token is refused. */
  tokenCommand: string | null;
  /** Where the command was given, as its errors name it: `--token-command` (the default) or COACHBENCH_TOKEN_COMMAND. */
  tokenCommandName?: string;
  /** The fixtures file, re-read for its tokens when it changes on disk. */
  fixturesPath: string | null;
  /** COACHBENCH_TOKEN, standing in for participants the file gives no token (as when it was first read). */
  fallbackToken?: string;
}

/** runTokenCommand's `name` option, when the sources say how the command was given. */
const commandName = (sources: CredentialSources): { name?: string } => (sources.tokenCommandName === undefined ? {} : { name: sources.tokenCommandName });

const COACH = '\u0000coach';
/** A refresh this recent already answered for the token that is now refused: no second run for it. */
const FRESH_MS = 1_000;
/** After a failed run, 401s within this long fail at once instead of running the command again. */
const FAILED_PAUSE_MS = 5_000;
const FIXTURES_POLL_MS = 1_000;

const bearerOf = (authorization: string | undefined): string | null => {
  const match = authorization === undefined ? null : /^Bearer\s+(\S+)$/i.exec(authorization);
  return match ? (match[1] as string) : null;
};

export class Credentials {
  /** Token → whose it is (a user id, or COACH): the tokens held now. */
  private readonly current = new Map<string, string>();
  /** The tokens the last renewal replaced → whose they were, so requests in flight find the successor. */
  private retired = new Map<string, string>();
  private readonly byUser = new Map<string, Fixtures['participants'][number]>();
  /**
   * The tokens renewals registered for masking, participants' and secrets (the coach's, one
   * for everyone), each once: released when the run holds them no more, so that masking
   * stays as large as what is held however many renewals a soak sees.
   */
  private readonly maskedTokens = new Set<string>();
  private readonly maskedSecrets = new Set<string>();
  private refreshing: Promise<boolean> | null = null;
  private lastRefreshEndMs = -Infinity;
  private lastFailureMs = -Infinity;
  private watching = false;
  /** A re-read of the fixtures file that a 401 asked for, shared by the 401s that arrive meanwhile. */
  private rereading: Promise<void> | null = null;
  /** Aborted by close(): a command still running is killed, and nothing waits for it. */
  private readonly closed = new AbortController();

  constructor(
    private readonly fixtures: Fixtures,
    private readonly sources: CredentialSources,
    /** The current interval's metrics (the run swaps the set every second). */
    private readonly metrics: () => MetricSet,
  ) {
    for (const participant of fixtures.participants) {
      this.byUser.set(participant.userId, participant);
      this.current.set(participant.token, participant.userId);
    }
    if (fixtures.coachToken) this.current.set(fixtures.coachToken, COACH);
  }

  /**
   * The `Authorization` value to send again after `authorization` was answered 401, or null
   * when the 401 stands (not a token of this run, no way to renew, or it was just renewed).
   */
  async renew(authorization: string | undefined): Promise<string | null> {
    const token = bearerOf(authorization);
    if (token === null) return null;
    const owner = this.current.get(token);
    if (owner === undefined) {
      const successorOf = this.retired.get(token);
      if (successorOf === undefined) return null;
      this.metrics().inc(AUTH.resent);
      return `Bearer ${this.tokenOf(successorOf)}`;
    }
    if (this.sources.tokenCommand === null) return this.renewFromFile(token, owner);
    if (!this.mayRefresh()) return null;
    this.metrics().inc(AUTH.waited);
    if (!(await this.refreshBefore(this.closed.signal))) return null;
    const renewed = this.tokenOf(owner);
    if (renewed === token) {
      this.rejectedAfterRefresh(`${this.sources.tokenCommandName ?? '--token-command'} gave the token that had just been refused`);
      return null;
    }
    this.metrics().inc(AUTH.resent);
    return `Bearer ${renewed}`;
  }

  /**
   * With a fixtures file and no command, a 401 to a current token reads the file at once
   * rather than at the next poll (a token job may have renamed new tokens in a moment ago):
   * a newer token is sent again once; the same token stands as the target's answer.
   */
  private async renewFromFile(token: string, owner: string): Promise<string | null> {
    const path = this.sources.fixturesPath;
    if (path === null) return null;
    this.rereading ??= this.reloadFixtures(path, false).finally(() => {
      this.rereading = null;
    });
    await this.rereading;
    const renewed = this.tokenOf(owner);
    if (renewed === token) return null;
    this.metrics().inc(AUTH.resent);
    return `Bearer ${renewed}`;
  }

  /**
   * For the closed model, which cannot send a request again: true when a 401 answered a token
   * that is being (or was just) replaced, so the answer is the token's age, not the target's
   * verdict; a refresh is started when none is running.
   */
  staleAnswer(authorization: string | undefined): boolean {
    const token = bearerOf(authorization);
    if (token === null) return false;
    if (!this.current.has(token)) {
      if (!this.retired.has(token)) return false;
    } else {
      if (!this.mayRefresh()) return false;
      void this.refresh();
    }
    this.metrics().inc(AUTH.staleAnswers);
    return true;
  }

  /**
   * Whether a refused current token may start (or join) a refresh. Not when there is no
   * command, when a refresh just gave this very token (counted as refused after refresh),
   * or right after a failed run (the command is not run in a loop).
   */
  private mayRefresh(): boolean {
    if (this.sources.tokenCommand === null) return false;
    if (this.refreshing !== null) return true;
    const now = performance.now();
    if (now - this.lastRefreshEndMs < FRESH_MS) {
      // The token may be one the renewal left as it was: say when, not that it was renewed.
      this.rejectedAfterRefresh(`a current token was refused ${Math.round(now - this.lastRefreshEndMs)} ms after a renewal ended`);
      return false;
    }
    return now - this.lastFailureMs >= FAILED_PAUSE_MS;
  }

  /** A request sent again with a renewed token was refused once more. */
  rejectedAfterRefresh(why = 'a request sent again with its renewed token was answered 401'): void {
    const metrics = this.metrics();
    metrics.inc(AUTH.rejectedAfterRefresh);
    metrics.sample('auth', why);
  }

  /** A refresh, given up (false) when `signal` aborts first. */
  private refreshBefore(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const giveUp = (): void => resolve(false);
      signal.addEventListener('abort', giveUp, { once: true });
      void this.refresh().then((ok) => {
        signal.removeEventListener('abort', giveUp);
        resolve(ok);
      });
    });
  }

  /** Runs the token command (joining a run in flight); true when it gave new tokens. */
  refresh(): Promise<boolean> {
    this.refreshing ??= this.runCommand().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async runCommand(): Promise<boolean> {
    const command = this.sources.tokenCommand;
    if (command === null) return false;
    const startMs = performance.now();
    try {
      this.apply(await runTokenCommand(command, () => this.heldTokens(), { signal: this.closed.signal, ...commandName(this.sources) }));
      const metrics = this.metrics();
      metrics.inc(AUTH.refreshes);
      recordMs(metrics.histogram(AUTH.refreshUs), performance.now() - startMs);
      this.lastRefreshEndMs = performance.now();
      return true;
    } catch (error) {
      if (this.closed.signal.aborted) return false;
      const metrics = this.metrics();
      metrics.inc(AUTH.refreshFailures);
      metrics.sample('auth', (error as Error).message);
      this.lastFailureMs = performance.now();
      return false;
    }
  }

  /** Puts new tokens in place; returns how many changed. */
  apply(update: CredentialUpdate): number {
    const retired = new Map<string, string>();
    let changed = 0;
    const replace = (owner: string, old: string | undefined, next: string): void => {
      if (old === next) return;
      changed += 1;
      if (old !== undefined) {
        retired.set(old, owner);
        if (this.current.get(old) === owner) this.current.delete(old);
      }
      this.current.set(next, owner);
    };
    for (const [userId, participant] of this.byUser) {
      const next = update.participants?.get(userId) ?? update.token;
      if (next === undefined) continue;
      replace(userId, participant.token, next);
      participant.token = next;
      this.maskToken(next);
    }
    if (update.coachToken !== undefined) {
      this.maskSecret(update.coachToken);
      replace(COACH, this.fixtures.coachToken, update.coachToken);
      this.fixtures.coachToken = update.coachToken;
    }
    // One token for everyone is a single secret: mask it everywhere, not only in headers.
    if (update.token !== undefined) this.maskSecret(update.token);
    if (changed > 0) this.retired = retired;
    this.unmaskDropped();
    return changed;
  }

  private maskToken(token: string): void {
    if (this.maskedTokens.has(token)) return;
    this.maskedTokens.add(token);
    registerParticipantTokens([token]);
  }

  private maskSecret(value: string): void {
    if (this.maskedSecrets.has(value)) return;
    this.maskedSecrets.add(value);
    registerSecret(value);
  }

  /**
   * Stops masking the renewed tokens the run no longer holds, current or just replaced
   * (docs/design.md §2.13): a token two renewals old is sent with no request and resent for
   * none. What the run was started with stays masked (registered elsewhere, and bounded).
   */
  private unmaskDropped(): void {
    const held = (token: string): boolean => this.current.has(token) || this.retired.has(token);
    for (const token of this.maskedTokens) {
      if (held(token)) continue;
      this.maskedTokens.delete(token);
      releaseParticipantTokens([token]);
    }
    for (const value of this.maskedSecrets) {
      if (held(value)) continue;
      this.maskedSecrets.delete(value);
      releaseSecret(value);
    }
  }

  /** Re-reads the fixtures file for its tokens whenever it changes on disk, until close(). */
  watchFixtures(): void {
    const path = this.sources.fixturesPath;
    if (path === null || this.watching) return;
    this.watching = true;
    // Polling, not fs.watch: an editor or a token job replaces the file (rename), which
    // ends an fs.watch on the old inode; stat polling follows the path.
    watchFile(path, { interval: FIXTURES_POLL_MS, persistent: false }, (now, before) => {
      if (now.mtimeMs !== before.mtimeMs || now.size !== before.size) void this.reloadFixtures(path);
    });
  }

  /** Reads the file's tokens in; `countUnchanged`: a read that changed no token counts as a reload too (the poll saw the file change). */
  private async reloadFixtures(path: string, countUnchanged = true): Promise<void> {
    try {
      const fixtures = await loadFixtures(path, this.sources.fallbackToken);
      const participants = new Map(fixtures.participants.map((p) => [p.userId, p.token]));
      const changed = this.apply({ participants, ...(fixtures.coachToken ? { coachToken: fixtures.coachToken } : {}) });
      if (changed > 0 || countUnchanged) this.metrics().inc(AUTH.fixturesReloads);
    } catch (error) {
      // A half-written file is the usual cause: the tokens held stay, the next change is read again.
      const metrics = this.metrics();
      metrics.inc(AUTH.fixturesReloadFailures);
      metrics.sample('auth', `fixtures re-read failed, tokens kept: ${(error as Error).message}`);
    }
  }

  /** Stops renewing: a running command is killed and every request waiting for it goes on with its 401. */
  close(): void {
    this.closed.abort();
    if (this.watching && this.sources.fixturesPath !== null) unwatchFile(this.sources.fixturesPath);
    this.watching = false;
  }

  /** The tokens held now (to mask them in what a failing command prints). */
  heldTokens(): Iterable<string> {
    return this.current.keys();
  }

  private tokenOf(owner: string): string {
    return owner === COACH ? (this.fixtures.coachToken ?? '') : (this.byUser.get(owner)?.token ?? '');
  }
}

/**
 * Runs the token command once before the run, so the preflight and every driver start with
 * its tokens. Rejects with its TokenCommandError (one line, secrets masked); `signal` kills
 * the command and rejects at once (a stop signal).
 */
export async function renewBeforeRun(fixtures: Fixtures, sources: CredentialSources, signal?: AbortSignal): Promise<void> {
  if (sources.tokenCommand === null) return;
  const credentials = new Credentials(fixtures, sources, () => new MetricSet());
  credentials.apply(await runTokenCommand(sources.tokenCommand, () => credentials.heldTokens(), { ...(signal ? { signal } : {}), ...commandName(sources) }));
}

/**
 * The status a renewal looks at: the target's, or null for an error answer a proxy made
 * itself (its mark, docs/design.md §2.12). A proxy's own 401 is about the proxy's
 * credentials: a participant's renewed token cannot fix it, and it is no refusal of one.
 */
export const targetStatus = (status: number, headers: Readonly<Record<string, string | string[] | undefined>>): number | null =>
  proxyMark(status, headers) === null ? status : null;

/**
 * Sends with `headers`; when the answer is a 401 that a renewed token may fix, sends once
 * more with it (a second 401 is counted against the renewal, never retried again).
 * `statusOf` gives the target's status (targetStatus: null for a proxy's own answer, which is
 * never renewed for). `discard` releases a refused first answer that is replaced (an unread
 * undici body holds its socket); `onResend` is told just before the second send. `resent`
 * says the answer is the second send's.
 */
export async function sendRenewing<R>(
  credentials: Credentials | null,
  headers: Record<string, string>,
  send: (headers: Record<string, string>) => Promise<R>,
  statusOf: (answer: R) => number | null,
  discard?: (answer: R) => Promise<unknown>,
  onResend?: () => void,
): Promise<{ answer: R; resent: boolean }> {
  const first = await send(headers);
  if (credentials === null || statusOf(first) !== 401) return { answer: first, resent: false };
  const authorization = await credentials.renew(headers.authorization);
  if (authorization === null) return { answer: first, resent: false };
  await discard?.(first);
  onResend?.();
  const answer = await send({ ...headers, authorization });
  if (statusOf(answer) === 401) credentials.rejectedAfterRefresh();
  return { answer, resent: true };
}
