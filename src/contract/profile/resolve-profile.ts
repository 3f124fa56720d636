/**
 * Fills every default and converts human units, turning a validated ProfileFile into a
 * Profile. Pure: no I/O. Defaults are the ones a first run against the embedded target needs.
 */
import { parseBytes } from '../../util/bytes.js';
import { parseDuration } from '../../util/duration.js';
import { ConfigError } from '../../util/errors.js';
import { printable } from '../../util/printable.js';
import type { AbortRule, Profile, ThroughputSettings } from './profile.js';
import type { ProfileFile } from './profile-file.js';

export const DEFAULT_KEEPALIVE_MS = 15_000;

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
    return Math.round((expectedMs * Number(percent)) / 100);
  }
  return parseDuration(text, where);
}

function throughput(file: NonNullable<ProfileFile['photoUpload']>, where: string, defaults: { ratePerSec: number; enabled: boolean }): ThroughputSettings {
  const ratePerSec = file.ratePerSec ?? defaults.ratePerSec;
  return {
    enabled: file.enabled ?? defaults.enabled,
    model: file.model ?? 'open',
    ratePerSec,
    rampToPerSec: file.rampToPerSec ?? ratePerSec,
    maxInFlight: file.maxInFlight ?? 256,
    connections: file.connections ?? 16,
    timeoutMs: parseDuration(file.timeout ?? '10s', `${where}.timeout`),
  };
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

export function resolveProfile(file: ProfileFile, source: string): Profile {
  const at = (field: string): string => `${source}: ${field}`;
  const targetKeepAliveMs = parseDuration(file.target?.keepAlive ?? DEFAULT_KEEPALIVE_MS, at('target.keepAlive'));
  const expectKeepAliveMs = file.expectKeepAlive === undefined ? null : parseDuration(file.expectKeepAlive, at('expectKeepAlive'));
  const chat = file.chatStreams ?? {};
  const photo = file.photoUpload ?? {};
  const tags = file.tagLink ?? {};
  const profile: Profile = {
    name: file.name,
    description: file.description ?? '',
    source,
    durationMs: parseDuration(file.duration ?? '30s', at('duration')),
    expectKeepAliveMs,
    keepAliveToleranceText: file.keepAliveTolerance ?? null,
    target: {
      keepAliveMs: targetKeepAliveMs,
      participants: file.target?.participants ?? Math.max(100, chat.participants ?? 100),
      sessionsPerParticipant: file.target?.sessionsPerParticipant ?? 3,
      seed: file.target?.seed ?? 1,
      faults: file.target?.faults ?? [],
    },
    chatStreams: {
      enabled: chat.enabled ?? true,
      participants: chat.participants ?? 100,
      rampPerSec: chat.rampPerSec ?? 100,
      switchEveryMs: parseDuration(chat.switchEvery ?? '10s', at('chatStreams.switchEvery')),
      mainStream: chat.mainStream ?? true,
      openTimeoutMs: parseDuration(chat.openTimeout ?? '10s', at('chatStreams.openTimeout')),
      reopenBaseMs: parseDuration(chat.reopenBase ?? '250ms', at('chatStreams.reopenBase')),
      reopenMaxMs: parseDuration(chat.reopenMax ?? '10s', at('chatStreams.reopenMax')),
      messageRatePerSec: chat.messageRatePerSec ?? 10,
      churnRatePerSec: chat.churnRatePerSec ?? 1,
      maxFrameBytes: parseBytes(chat.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES, at('chatStreams.maxFrameBytes')),
    },
    photoUpload: {
      ...throughput(photo, at('photoUpload'), { ratePerSec: 10, enabled: false }),
      imageSizes: (photo.imageSizes ?? ['16KiB', '256KiB', '2MiB']).map((s, i) => parseBytes(s, at(`photoUpload.imageSizes[${i}]`))),
      formats: photo.formats ?? ['jpeg', 'png', 'webp'],
      overrideShare: photo.overrideShare ?? 0.2,
    },
    tagLink: {
      ...throughput(tags, at('tagLink'), { ratePerSec: 10, enabled: false }),
      tagsPerRequest: tags.tagsPerRequest ?? 4,
      existingShare: tags.existingShare ?? 0.5,
    },
    thresholds: (file.thresholds ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.threshold)),
    abortOnFail: abortRules(file.thresholds ?? [], at),
    warmupMs: parseDuration(file.warmup ?? 0, at('warmup')),
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
  return profile;
}
