/** The scenarios a profile asks for, as the engine runs them in one process. */
import { randomBytes } from 'node:crypto';
import type { Profile } from '../contract/profile/profile.js';
import type { Scenario } from '../engine/scenario.js';
import { chatStreamsScenario } from './chat/chat-soak.js';
import { requestsScenario } from './requests/requests-scenario.js';
import { photoUploadScenario, probesScenario, tagLinkScenario } from './throughput/index.js';

/**
 * Which of a profile's scenarios one loop runs: `all`, or, when requests get their own thread
 * beside streams (docs/design.md §6), `streams` (chat streams and the probes) on the process's
 * main loop and `requests` (photo upload, tag link, request kinds) on the request thread.
 */
export type ScenarioPart = 'all' | 'streams' | 'requests';

/**
 * `runTag` marks this process's injected messages, so that a stream counts only deliveries
 * it can account for (another process's tokens are not its to judge); fresh per process.
 */
export function scenariosFor(profile: Profile, runTag = randomBytes(4).toString('hex'), part: ScenarioPart = 'all'): Scenario[] {
  const scenarios: Scenario[] = part === 'requests' ? [] : [chatStreamsScenario(runTag), probesScenario];
  if (part === 'streams') return scenarios;
  if (profile.photoUpload.enabled) scenarios.push(photoUploadScenario);
  if (profile.tagLink.enabled) scenarios.push(tagLinkScenario);
  if (profile.requests?.kinds.some((kind) => kind.enabled)) scenarios.push(requestsScenario(runTag));
  return scenarios;
}

/**
 * Requests get a thread of their own when streams run beside them: a stream loop's garbage
 * collections and parsing (tens of ms at thousands of streams) would otherwise delay the
 * timers that pace requests and the callbacks that time them.
 */
export function wantsRequestThread(profile: Profile): boolean {
  return (
    profile.chatStreams.enabled &&
    profile.chatStreams.participants > 0 &&
    (profile.photoUpload.enabled || profile.tagLink.enabled || (profile.requests?.kinds.some((kind) => kind.enabled) ?? false))
  );
}
