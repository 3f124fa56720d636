/**
 * Everything a run needs, resolved from flags, environment and profile before anything
 * starts, so that every configuration error exits 2 before the first connection.
 */
import { type Fixtures, loadFixtures } from '../contract/fixtures.js';
import { loadProfile } from '../contract/profile/load-profile.js';
import type { Profile } from '../contract/profile/profile.js';
import { hasStages, runPlanOf } from '../contract/profile/run-plan.js';
import type { ShardInfo } from '../contract/report.js';
import type { CredentialSources } from '../engine/auth/credentials.js';
import type { Transport } from '../engine/transport.js';
import { type ParsedThreshold, parseThreshold } from '../metrics/thresholds.js';
import { checkTraceUrlTemplate } from '../report/trace-url.js';
import { parseDuration } from '../util/duration.js';
import { ConfigError } from '../util/errors.js';
import { printable } from '../util/printable.js';
import { MAX_SEED } from '../util/random-stream.js';
import { registerSecret } from '../util/redact.js';
import { parseSearch } from './capacity/search-plan.js';
import { closedModelScenarios } from './closed-model-http.js';
import { type LiveOutputConfig, type LiveOutputFlags, parseLiveOutputFlags } from './outputs/output-config.js';
import { checkShardFits } from './profile-share.js';
import { resolveLabels } from './run-labels.js';
import { parseStartAt, refuseLateStart } from './start-at.js';
import { resolveTransport, type TransportFlags } from './transport-config.js';

export interface RunFlags extends LiveOutputFlags, TransportFlags {
  profile?: string;
  target?: string;
  fixtures?: string;
  duration?: string;
  /** `--seed N`: the driver's seed (Poisson arrivals); wins over the profile's. */
  seed?: string | number;
  out?: string;
  workers?: string | number;
  shard?: string;
  expectKeepalive?: string;
  threshold?: string[];
  /** `--progress-every 60s`: a plain progress line at that cadence. */
  progressEvery?: string;
  /** `--label key=value`, repeatable: recorded in report.json (run-labels.ts). */
  label?: string[];
  /** `--start-at TIME|+DURATION`: wait for this instant before any load (start-at.ts). */
  startAt?: string;
  /** `--token-command CMD` (or COACHBENCH_TOKEN_COMMAND): prints fresh bearer tokens (engine/auth/token-command.ts). */
  tokenCommand?: string;
  /** `--trace-url TEMPLATE`: report.html links slowest trace ids to it (report/trace-url.ts). */
  traceUrl?: string;
  quiet?: boolean;
}

export interface RunConfig {
  profile: Profile;
  /** Target base URL (without /api/v1), or null for the embedded target. */
  targetUrl: string | null;
  /** Fixtures for an external target (null for the embedded one, which makes its own). */
  fixtures: Fixtures | null;
  coachToken: string | null;
  apiKey: string | null;
  outDir: string | null;
  workers: number | 'auto';
  shard: ShardInfo | null;
  /** --expect-keepalive, else the profile's, else null (the embedded target's, or 15 s). */
  expectKeepAliveMs: number | null;
  thresholds: string[];
  /** `--progress-every`, in ms; null: a line every 5 s when stderr is not a TTY, rewritten in place when it is. */
  progressEveryMs: number | null;
  /** What the run is of (`--label`, the CI's git sha); recorded as report.json `labels` when not empty. */
  labels?: Record<string, string>;
  /** `--trace-url`, checked; recorded as report.json `traceUrl`. */
  traceUrl?: string;
  quiet: boolean;
  /** --metrics-port, --metrics-host, --otlp, --dashboard. */
  outputs: LiveOutputConfig;
  /** `--start-at` (or COACHBENCH_START_AT) as epoch ms: no load before it; null: at once. */
  startAtMs: number | null;
  /** TLS, extra headers and proxy for every request and stream (docs/design.md §2.12). */
  transport: Transport;
  /** Where renewed tokens come from (docs/design.md §2.13): the token command, the fixtures file re-read. */
  credentials: CredentialSources;
}

/**
 * The profile's thresholds, then the --threshold flags', in that order. A bad one is named
 * where it was written, the profile's by its file and entry, a flag's as `--threshold`
 * (docs/design.md §2.10), and every problem is said at once.
 */
function parseRunThresholds(profile: Profile, flagged: readonly string[]): ParsedThreshold[] {
  const parsed: ParsedThreshold[] = [];
  const problems: string[] = [];
  const take = (expression: string, where: string): void => {
    try {
      parsed.push(parseThreshold(expression, where));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message);
    }
  };
  for (const [index, expression] of profile.thresholds.entries()) take(expression, `${profile.source}: thresholds[${index}]`);
  for (const expression of flagged) take(expression, '--threshold');
  if (problems.length > 0) throw new ConfigError(problems.join('; '));
  return parsed;
}

/** A threshold on `requests.<kind>.…` (`--threshold` too) must name a kind of the profile (docs/design.md §2.15). */
function checkKindNames(thresholds: readonly ParsedThreshold[], profile: Profile): void {
  const kinds = (profile.requests?.kinds ?? []).map((kind) => kind.name);
  for (const threshold of thresholds) {
    if (threshold.metric.root !== 'requests') continue;
    const kind = threshold.metric.field.split('.')[0] ?? '';
    if (kinds.includes(kind)) continue;
    const known = kinds.length > 0 ? `kinds: ${kinds.join(', ')}` : 'it has no requests.kinds';
    throw new ConfigError(`threshold "${threshold.expression}": ${profile.source} has no request kind "${kind}" (${known})`);
  }
}

/** A threshold on `{stage:NAME}` must name a stage the profile names (exit 2 before anything starts). */
function checkStageNames(thresholds: readonly ParsedThreshold[], profile: Profile): void {
  const named = runPlanOf(profile).windows.map((window) => window.name);
  for (const threshold of thresholds) {
    if (threshold.stage === null || named.includes(threshold.stage)) continue;
    const known = named.length > 0 ? `its named stages are ${named.join(', ')}` : 'it names no stages';
    throw new ConfigError(`threshold "${threshold.expression}": ${profile.source} has no stage named "${threshold.stage}" (${known})`);
  }
}

/**
 * Most shards `--shard I/N` splits one run into (docs/design.md §2.2): each is a machine or a
 * pod, and `merge` reads every shard's report; a count past this is a typo, not a fleet.
 */
export const MAX_SHARDS = 1_000;

/** Parses `I/N` (0-based shard index I of N, N at most MAX_SHARDS). */
export function parseShard(text: string): ShardInfo {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index >= count) {
    throw new ConfigError(`--shard: "${printable(text)}" must be I/N with 0 <= I < N (e.g. 0/4)`);
  }
  if (count > MAX_SHARDS) throw new ConfigError(`--shard: "${printable(text)}" splits the run into ${count} shards; at most ${MAX_SHARDS}`);
  return { index, count };
}

/** `--seed N`: a whole number in 0..2^32 − 1, written as digits only. */
export function parseSeed(value: string | number): number {
  const text = String(value).trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > MAX_SEED) throw new ConfigError(`--seed: "${printable(text)}" must be a whole number in 0..${MAX_SEED}`);
  return n;
}

/** Most driver processes `--workers` starts on one machine. */
export const MAX_RUN_WORKERS = 64;

/** `--workers N|auto`: N a whole number in 1..MAX_RUN_WORKERS, written as digits only. */
export function parseWorkers(value: string | number | undefined): number | 'auto' {
  if (value === undefined) return 1;
  const text = String(value).trim();
  if (text === 'auto') return 'auto';
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > MAX_RUN_WORKERS) {
    throw new ConfigError(`--workers: "${printable(text)}" must be a whole number in 1..${MAX_RUN_WORKERS} or auto`);
  }
  return n;
}

/**
 * Normalizes a target URL: http(s) only, no trailing slash, an /api/v1 suffix accepted and
 * removed. `source` is where the URL came from (`--target` or `COACHBENCH_TARGET`), which an error names.
 */
export function normalizeTargetUrl(text: string, source = '--target'): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${source}: "${printable(text)}" is not a URL (e.g. http://127.0.0.1:8080)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${source}: "${printable(text)}": only http and https are supported`);
  if (url.username || url.password) throw new ConfigError(`${source}: put credentials in COACHBENCH_* variables, not in the URL`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '')}`;
}

/** `--progress-every`: a duration of at least 1 s (the interval a line reports on). */
function parseProgressEvery(text: string): number {
  const ms = parseDuration(text, '--progress-every');
  if (ms < 1_000) throw new ConfigError(`--progress-every: "${printable(text)}" must be at least 1s (one progress line per interval at most)`);
  return ms;
}

/** The shortest KEEP_ALIVE interval streams can be held to: the floor of `serve --keepalive`. */
const MIN_EXPECT_KEEPALIVE_MS = 10;

/** `--expect-keepalive`, else the profile's `expectKeepAlive`, else null; at least 10ms, or every stream would fail its cadence and stall checks. */
function expectKeepAlive(flags: RunFlags, profile: Profile): number | null {
  const [ms, where] =
    flags.expectKeepalive !== undefined
      ? [parseDuration(flags.expectKeepalive, '--expect-keepalive'), `--expect-keepalive: "${printable(flags.expectKeepalive)}"`]
      : [profile.expectKeepAliveMs, `${profile.source}: expectKeepAlive`];
  if (ms !== null && ms < MIN_EXPECT_KEEPALIVE_MS)
    throw new ConfigError(`${where} must be at least ${MIN_EXPECT_KEEPALIVE_MS}ms (the shortest interval serve --keepalive takes)`);
  return ms;
}

/**
 * A capacity search is not sharded (`run --shard` and `plan --shard` alike): `merge` refuses
 * capacity searches, and each shard would choose its next step from its own share's SLOs, so
 * shards would search apart. Refused before the fleet starts.
 */
export function refuseShardedSearch(profile: Profile): void {
  if (!profile.search) return;
  throw new ConfigError(
    '--shard: a capacity search chooses each step from its SLOs, so shards would search apart and cannot merge; search in one run (--workers for more cores)',
  );
}

export async function resolveRunConfig(flags: RunFlags, env: NodeJS.ProcessEnv): Promise<RunConfig> {
  const profile = await loadProfile(flags.profile ?? 'smoke');
  if (flags.duration !== undefined) {
    if (hasStages(profile))
      throw new ConfigError(`--duration: ${profile.source} shapes its load with stages; the run lasts as long as they do (see coachbench plan)`);
    profile.durationMs = parseDuration(flags.duration, '--duration');
  }
  if (profile.durationMs <= 0) throw new ConfigError('--duration: must be greater than 0');
  if (flags.seed !== undefined) profile.seed = parseSeed(flags.seed);
  const thresholds = [...profile.thresholds, ...(flags.threshold ?? [])];
  const parsed = parseRunThresholds(profile, flags.threshold ?? []);
  checkStageNames(parsed, profile);
  checkKindNames(parsed, profile);
  if (profile.search) {
    parseSearch(profile.search, profile.source);
    // A search holds each step's load fixed while it judges the SLOs; a timeline would move it.
    if (hasStages(profile)) throw new ConfigError(`${profile.source}: a capacity search steps the load itself; remove the stages (or the search)`);
  }
  const targetText = flags.target ?? env.COACHBENCH_TARGET;
  // An error names what the user set: the flag, or the variable when the URL came from the environment.
  const targetSource = flags.target === undefined ? 'COACHBENCH_TARGET' : '--target';
  const targetUrl = targetText ? normalizeTargetUrl(targetText, targetSource) : null;
  let fixtures: Fixtures | null = null;
  let apiKey: string | null = null;
  let coachToken: string | null = null;
  if (targetUrl) {
    if (!flags.fixtures) throw new ConfigError(`${targetSource} needs --fixtures FILE (who the virtual participants are; see docs/design.md §3)`);
    fixtures = await loadFixtures(flags.fixtures, env.COACHBENCH_TOKEN);
    apiKey = fixtures.apiKey ?? env.COACHBENCH_API_KEY ?? null;
    if (!apiKey) throw new ConfigError(`no API key: set COACHBENCH_API_KEY or "apiKey" in ${flags.fixtures}`);
    coachToken = fixtures.coachToken ?? env.COACHBENCH_COACH_TOKEN ?? null;
  } else if (flags.fixtures) {
    throw new ConfigError('--fixtures is for --target runs; the embedded target makes its own participants');
  }
  const startAtText = flags.startAt ?? (env.COACHBENCH_START_AT || undefined);
  const startAtMs =
    startAtText === undefined ? null : parseStartAt(startAtText, Date.now(), flags.startAt === undefined ? 'COACHBENCH_START_AT' : '--start-at');
  if (flags.shard !== undefined) refuseShardedSearch(profile);
  if (startAtMs !== null) {
    if (profile.search) throw new ConfigError('--start-at: a capacity search runs many steps one after another; start it without --start-at');
    refuseLateStart(startAtMs, Date.now());
  }
  const transport = resolveTransport(flags, profile, env);
  const closedModel = closedModelScenarios(profile).length > 0;
  if (closedModel && transport.http === '2') {
    throw new ConfigError(
      '--http 2: the closed model (autocannon) speaks HTTP/1.1 only; use the open model, or --http auto (the closed model then stays on HTTP/1.1)',
    );
  }
  if (transport.http === '2' && transport.proxy.mode === 'url')
    throw new ConfigError('--http 2 cannot go through --proxy yet: use --http auto or 1.1 behind a proxy');
  if (closedModel && transport.proxy.mode === 'url') {
    throw new ConfigError('--proxy: the closed model (autocannon) cannot go through a proxy; use the open model, or run it without --proxy');
  }
  const tokenCommand = (flags.tokenCommand ?? env.COACHBENCH_TOKEN_COMMAND ?? '').trim() || null;
  if (flags.tokenCommand !== undefined && tokenCommand === null) throw new ConfigError('--token-command: needs a command');
  // Its errors, here and when it runs, name what the user set: the flag, or the variable.
  const tokenCommandName = flags.tokenCommand === undefined ? 'COACHBENCH_TOKEN_COMMAND' : '--token-command';
  if (tokenCommand !== null && targetUrl === null) {
    throw new ConfigError(`${tokenCommandName} is for --target runs: the embedded target issues tokens that do not expire`);
  }
  const credentials: CredentialSources = {
    tokenCommand,
    ...(tokenCommand !== null ? { tokenCommandName } : {}),
    fixturesPath: targetUrl === null ? null : (flags.fixtures ?? null),
    ...(env.COACHBENCH_TOKEN ? { fallbackToken: env.COACHBENCH_TOKEN } : {}),
  };
  for (const secret of [apiKey, coachToken, env.COACHBENCH_API_KEY, env.COACHBENCH_TOKEN, env.COACHBENCH_COACH_TOKEN]) registerSecret(secret);
  return {
    profile,
    targetUrl,
    fixtures,
    apiKey,
    coachToken,
    outDir: flags.out ?? null,
    workers: parseWorkers(flags.workers),
    shard: flags.shard ? checkShardFits(parseShard(flags.shard), profile, fixtures?.participants.length ?? null) : null,
    expectKeepAliveMs: expectKeepAlive(flags, profile),
    thresholds,
    progressEveryMs: flags.progressEvery === undefined ? null : parseProgressEvery(flags.progressEvery),
    labels: resolveLabels(flags.label ?? [], env),
    ...(flags.traceUrl !== undefined ? { traceUrl: checkTraceUrlTemplate(flags.traceUrl) } : {}),
    quiet: flags.quiet ?? false,
    outputs: parseLiveOutputFlags(flags),
    startAtMs,
    transport,
    credentials,
  };
}
