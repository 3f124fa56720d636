/**
 * Fills every default and converts human units, turning a validated ProfileFile into a
 * Profile. Pure: no I/O. Defaults are the ones a first run against the embedded target needs.
 */
import { formatBytes, parseBytes } from '../../util/bytes.js';
import { parseDuration } from '../../util/duration.js';
import { ConfigError } from '../../util/errors.js';
import { printable } from '../../util/printable.js';
import type { AbortRule, Profile, ThroughputSettings } from './profile.js';
import type { ProfileFile, StageFile } from './profile-file.js';
import { MAX_FRAME_BYTES_LIMIT, MAX_IMAGE_BYTES, MAX_IMAGE_CORPUS_BYTES, MAX_TOLERANCE_PERCENT } from './profile-limits.js';
import { resolveRequests } from './resolve-requests.js';
import { type PlannedStage, peakOf, planStages, stagesEndMs, stageWindows } from './stage-plan.js';

export const DEFAULT_KEEPALIVE_MS = 15_000;

/** The driver's seed when neither `--seed` nor the profile gives one: runs are reproducible by default. */
export const DEFAULT_SEED = 1;

/** A frame bound far above any event of the API, far below what would hurt a process holding thousands of streams. */
export const DEFAULT_MAX_FRAME_BYTES = 1024 * 1024;
/** Below this, ordinary events (a message list, a session update) would be refused. */
const MIN_MAX_FRAME_BYTES = 1024;

/** Tolerance either as a duration or as a percentage of the expected interval. */
export function resolveTolerance(text: string | number | undefined, expectedMs: number, where: string): number {
  if (text === undefined) return Math.max(50, Math.round(expectedMs * 0.1));
  if (typeof text === 'string' && text.trim().endsWith('%')) {
    const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(text.trim())?.[1];
    if (percent === undefined) throw new ConfigError(`${where}: "${printable(text)}" is not a percentage (e.g. 10%)`);
    if (Number(percent) > MAX_TOLERANCE_PERCENT) throw new ConfigError(`${where}: ${percent}% is more than the maximum, ${MAX_TOLERANCE_PERCENT}%`);
    return Math.round((expectedMs * Number(percent)) / 100);
  }
  return parseDuration(text, where);
}

/** A size as written (`2MiB`, bytes), at most `max`: text escapes the schema's `maximum`. */
function sizeOf(text: string | number, where: string, max: number): number {
  const bytes = parseBytes(text, where);
  if (!(bytes <= max))
    throw new ConfigError(`${where}: ${Number.isFinite(bytes) ? formatBytes(bytes) : printable(String(text))} is larger than the maximum, ${formatBytes(max)}`);
  return bytes;
}

/** The images a photo upload builds before the run: every size in every format, bounded in all. */
function imageSizes(photo: NonNullable<ProfileFile['photoUpload']>, formats: number, at: (field: string) => string): number[] {
  const sizes = (photo.imageSizes ?? ['16KiB', '256KiB', '2MiB']).map((s, i) => sizeOf(s, at(`photoUpload.imageSizes[${i}]`), MAX_IMAGE_BYTES));
  const total = sizes.reduce((sum, size) => sum + size, 0) * formats;
  if (total > MAX_IMAGE_CORPUS_BYTES) {
    throw new ConfigError(
      at(
        `photoUpload.imageSizes: ${formatBytes(total)} of images in all (each size in each of ${formats} formats), more than the maximum, ${formatBytes(MAX_IMAGE_CORPUS_BYTES)}`,
      ),
    );
  }
  return sizes;
}

/** Written stages resolved, or null when there are none; `replaced` are the fields stages stand in for. */
function resolveStages(stages: StageFile[] | undefined, where: string, given: Record<string, unknown>): PlannedStage[] | null {
  if (stages === undefined) return null;
  for (const [field, value] of Object.entries(given)) {
    if (value !== undefined) throw new ConfigError(`${where}.${field}: remove it: with stages the shape comes from the stages' targets`);
  }
  const specs = stages.map((stage, i) => ({
    durationMs: parseDuration(stage.duration, `${where}.stages[${i}].duration`),
    target: stage.target,
    name: stage.name,
  }));
  return planStages(specs, `${where}.stages`);
}

function throughput(file: NonNullable<ProfileFile['photoUpload']>, where: string, defaults: { ratePerSec: number; enabled: boolean }): ThroughputSettings {
  const stages = resolveStages(file.stages, where, { ratePerSec: file.ratePerSec, rampToPerSec: file.rampToPerSec });
  if (stages && file.model === 'closed') throw new ConfigError(`${where}.stages: an arrival rate needs the open model (the closed model has no rate)`);
  if (file.arrivals === 'poisson' && file.model === 'closed')
    throw new ConfigError(`${where}.arrivals: "poisson" needs the open model (the closed model sends back to back, it has no arrivals to place)`);
  const ratePerSec = stages ? stages[0]!.from : (file.ratePerSec ?? defaults.ratePerSec);
  return {
    enabled: file.enabled ?? defaults.enabled,
    model: file.model ?? 'open',
    ratePerSec,
    rampToPerSec: stages ? stages.at(-1)!.to : (file.rampToPerSec ?? ratePerSec),
    arrivals: file.arrivals ?? 'uniform',
    maxInFlight: file.maxInFlight ?? 256,
    connections: file.connections ?? 16,
    timeoutMs: parseDuration(file.timeout ?? '10s', `${where}.timeout`),
    stages,
  };
}

/**
 * With stages anywhere, the run lasts as long as the longest list (a `duration` beside them is
 * an error: two answers to one question); without, `duration` or 30 s.
 */
function runDurationMs(file: ProfileFile, plans: Array<PlannedStage[] | null>, at: (field: string) => string): number {
  const ends = plans.filter((plan): plan is PlannedStage[] => plan !== null).map(stagesEndMs);
  if (ends.length === 0) return parseDuration(file.duration ?? '30s', at('duration'));
  if (file.duration !== undefined) throw new ConfigError(at('duration: remove it: with stages the run lasts as long as its longest list of stages'));
  return Math.max(...ends);
}

function abortRules(entries: NonNullable<ProfileFile['thresholds']>, at: (field: string) => string): AbortRule[] {
  const rules: AbortRule[] = [];
  entries.forEach((entry, index) => {
    if (typeof entry === 'string') return;
    const where = at(`thresholds[${index}].delayAbortEval`);
    if (!entry.abortOnFail) {
      if (entry.delayAbortEval !== undefined) throw new ConfigError(`${where}: has no effect without "abortOnFail": true`);
      return;
    }
    rules.push({ expression: entry.threshold, delayAbortEvalMs: parseDuration(entry.delayAbortEval ?? 0, where) });
  });
  return rules;
}

/** A threshold on `requests.<kind>.…` must name a kind of the profile: else it could only fail, after the whole run. */
function checkKindThresholds(profile: Profile, at: (field: string) => string): void {
  const kinds = new Set((profile.requests?.kinds ?? []).map((kind) => kind.name));
  profile.thresholds.forEach((expression, index) => {
    const kind = /^\s*requests\.([A-Za-z0-9_-]+)/.exec(expression)?.[1];
    if (kind !== undefined && !kinds.has(kind)) {
      const known = kinds.size > 0 ? `kinds: ${[...kinds].join(', ')}` : 'the profile has no requests.kinds';
      throw new ConfigError(at(`thresholds[${index}]: "${printable(expression)}" names no request kind "${printable(kind)}" (${known})`));
    }
  });
}

export function resolveProfile(file: ProfileFile, source: string): Profile {
  const at = (field: string): string => `${source}: ${field}`;
  const targetKeepAliveMs = parseDuration(file.target?.keepAlive ?? DEFAULT_KEEPALIVE_MS, at('target.keepAlive'));
  const expectKeepAliveMs = file.expectKeepAlive === undefined ? null : parseDuration(file.expectKeepAlive, at('expectKeepAlive'));
  const chat = file.chatStreams ?? {};
  const photo = file.photoUpload ?? {};
  const tags = file.tagLink ?? {};
  const chatStages = resolveStages(chat.stages, at('chatStreams'), { participants: chat.participants, rampPerSec: chat.rampPerSec });
  const participants = chatStages ? Math.max(1, Math.ceil(peakOf(chatStages))) : (chat.participants ?? 100);
  const photoUpload = throughput(photo, at('photoUpload'), { ratePerSec: 10, enabled: false });
  const tagLink = throughput(tags, at('tagLink'), { ratePerSec: 10, enabled: false });
  const requests = file.requests
    ? resolveRequests(file.requests, at('requests'), (block, where) => throughput(block, where, { ratePerSec: 10, enabled: true }))
    : undefined;
  const profile: Profile = {
    name: file.name,
    description: file.description ?? '',
    source,
    durationMs: runDurationMs(file, [chatStages, photoUpload.stages, tagLink.stages, ...(requests?.kinds ?? []).map((kind) => kind.stages)], at),
    seed: file.seed ?? DEFAULT_SEED,
    expectKeepAliveMs,
    keepAliveToleranceText: file.keepAliveTolerance ?? null,
    target: {
      keepAliveMs: targetKeepAliveMs,
      participants: file.target?.participants ?? Math.max(100, participants),
      sessionsPerParticipant: file.target?.sessionsPerParticipant ?? 3,
      seed: file.target?.seed ?? 1,
      faults: file.target?.faults ?? [],
      tls: file.target?.tls ?? null,
      sseRetryMs: file.target?.sseRetry === undefined ? null : parseDuration(file.target.sseRetry, at('target.sseRetry')),
      http2: file.target?.http2 ?? false,
    },
    chatStreams: {
      enabled: chat.enabled ?? true,
      participants,
      rampPerSec: chat.rampPerSec ?? 100,
      switchEveryMs: parseDuration(chat.switchEvery ?? '10s', at('chatStreams.switchEvery')),
      mainStream: chat.mainStream ?? true,
      openTimeoutMs: parseDuration(chat.openTimeout ?? '10s', at('chatStreams.openTimeout')),
      reopenBaseMs: parseDuration(chat.reopenBase ?? '250ms', at('chatStreams.reopenBase')),
      reopenMaxMs: parseDuration(chat.reopenMax ?? '10s', at('chatStreams.reopenMax')),
      messageRatePerSec: chat.messageRatePerSec ?? 10,
      messageArrivals: chat.messageArrivals ?? 'uniform',
      churnRatePerSec: chat.churnRatePerSec ?? 1,
      maxFrameBytes: sizeOf(chat.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES, at('chatStreams.maxFrameBytes'), MAX_FRAME_BYTES_LIMIT),
      stages: chatStages,
    },
    photoUpload: {
      ...photoUpload,
      imageSizes: imageSizes(photo, (photo.formats ?? ['jpeg', 'png', 'webp']).length, at),
      formats: photo.formats ?? ['jpeg', 'png', 'webp'],
      overrideShare: photo.overrideShare ?? 0.2,
    },
    tagLink: {
      ...tagLink,
      tagsPerRequest: tags.tagsPerRequest ?? 4,
      existingShare: tags.existingShare ?? 0.5,
    },
    // Only a profile with the section carries it: the others' resolved profile stays as it was.
    ...(requests ? { requests } : {}),
    thresholds: (file.thresholds ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.threshold)),
    abortOnFail: abortRules(file.thresholds ?? [], at),
    warmupMs: parseDuration(file.warmup ?? 0, at('warmup')),
    tls: {
      ca: file.tls?.ca === undefined ? [] : [file.tls.ca].flat(),
      cert: file.tls?.cert ?? null,
      key: file.tls?.key ?? null,
      servername: file.tls?.servername ?? null,
      insecure: file.tls?.insecure ?? false,
    },
    headers: file.headers ?? {},
    generator: { maxEventLoopDelayP99Ms: parseDuration(file.generator?.maxEventLoopDelayP99 ?? '50ms', at('generator.maxEventLoopDelayP99')) },
    workers: { onWorkerExit: file.workers?.onWorkerExit ?? 'fail' },
    search: file.search ?? null,
  };
  if (profile.chatStreams.maxFrameBytes < MIN_MAX_FRAME_BYTES) {
    throw new ConfigError(at(`chatStreams.maxFrameBytes: must be at least ${MIN_MAX_FRAME_BYTES} bytes (1KiB)`));
  }
  if (profile.chatStreams.reopenMaxMs < profile.chatStreams.reopenBaseMs) {
    throw new ConfigError(at('chatStreams.reopenMax: must be at least reopenBase'));
  }
  // Fail a bad tolerance now (exit 2), not after the target has started.
  resolveTolerance(file.keepAliveTolerance, expectKeepAliveMs ?? targetKeepAliveMs, at('keepAliveTolerance'));
  if (profile.durationMs <= 0) throw new ConfigError(at('duration: must be greater than 0'));
  checkKindThresholds(profile, at);
  // A name shared by two scenarios must be one window; fail it now (exit 2).
  const kindStages = (requests?.kinds ?? []).map((kind) => [`requests.${kind.name}`, kind.stages ?? []] as const);
  stageWindows(
    { chatStreams: chatStages ?? [], photoUpload: photoUpload.stages ?? [], tagLink: tagLink.stages ?? [], ...Object.fromEntries(kindStages) },
    source,
  );
  return profile;
}
