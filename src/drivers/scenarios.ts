/** The scenarios a profile asks for, as the engine runs them in one process. */
import { randomBytes } from 'node:crypto';
import type { Profile } from '../contract/profile/profile.js';
import type { Scenario } from '../engine/scenario.js';
import { chatStreamsScenario } from './chat/chat-scenario.js';
import { photoUploadScenario, probesScenario, tagLinkScenario } from './throughput/index.js';

/**
 * `runTag` marks this process's injected messages, so that a stream counts only deliveries
 * it can account for (another process's tokens are not its to judge); fresh per process.
 */
export function scenariosFor(profile: Profile, runTag = randomBytes(4).toString('hex')): Scenario[] {
  const scenarios: Scenario[] = [chatStreamsScenario(runTag), probesScenario];
  if (profile.photoUpload.enabled) scenarios.push(photoUploadScenario);
  if (profile.tagLink.enabled) scenarios.push(tagLinkScenario);
  return scenarios;
}
