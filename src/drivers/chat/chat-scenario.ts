/**
 * The chat-stream scenario as the engine runs it. Its driver (chat-soak.ts and the stream,
 * validation and delivery code under it) loads in `prepare`, before the run's clock starts,
 * and only when the profile has chat streams: a throughput-only run skips loading it
 * (docs/benchmarks.md, "Figures behind the code").
 */
import type { Profile } from '../../contract/profile/profile.js';
import type { Scenario, ScenarioContext } from '../../engine/scenario.js';

type ChatSoak = typeof import('./chat-soak.js');

export function chatStreamsScenario(runTag: string): Scenario {
  let soak: Promise<ChatSoak> | undefined;
  const load = (): Promise<ChatSoak> => {
    soak ??= import('./chat-soak.js');
    return soak;
  };
  return {
    name: 'chatStreams',
    async prepare(profile: Profile): Promise<void> {
      if (profile.chatStreams.enabled) await load();
    },
    async run(ctx: ScenarioContext): Promise<void> {
      if (!ctx.profile.chatStreams.enabled) return;
      await (await load()).runChatStreams(ctx, runTag);
    },
  };
}
