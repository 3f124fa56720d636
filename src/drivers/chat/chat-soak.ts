/**
 * The chat-stream soak: ramp participants up at the profile's rate, hold their streams while
 * messages and membership churn flow, then drain (let the last deliveries land) and close.
 */
import { performance } from 'node:perf_hooks';
import { type PlannedStage, valueAt } from '../../contract/profile/stage-plan.js';
import { runOpenLoop } from '../../engine/open-loop.js';
import { linearPacer } from '../../engine/pacer.js';
import type { Scenario, ScenarioContext } from '../../engine/scenario.js';
import { StreamState } from '../../engine/sse-reader.js';
import { ChatDriver } from './chat-driver.js';
import { runMembershipChurn } from './membership-churn.js';
import { runMessageInjector } from './message-injector.js';
import { chatStreamOf } from './virtual-participant.js';

/** How long an injected message may take to reach every stream before it counts as missing. */
export const DELIVERY_WINDOW_MS = 5_000;

/**
 * How long the end of a run waits for opens still in flight to be answered: enough for any
 * healthy open, short beside the grace a run has to stop (docs/design.md §6).
 */
export const OPEN_SETTLE_MS = 2_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** Resolves once any participant's chat stream is open (or the run ends first). */
async function firstOpenStream(driver: ChatDriver, signal: AbortSignal): Promise<number> {
  while (!signal.aborted && !driver.participants.some((p) => chatStreamOf(p)?.state === StreamState.Open)) await sleep(20);
  return performance.now();
}

/** How often the population is brought to plan: 1,000 opens/s arrive as ~10 per tick, not in bursts. */
const POPULATION_TICK_MS = 10;
/**
 * Most participants that join or leave in one tick (5,000/s): a step (a spike) of thousands is
 * spread over a few ticks, as each open or close costs the loop time (docs/design.md §2.11;
 * docs/benchmarks.md).
 */
const POPULATION_CHANGES_PER_TICK = 50;

/** Keeps the online participants at the planned population until the run ends. */
async function followPopulation(ctx: ScenarioContext, driver: ChatDriver, stages: readonly PlannedStage[]): Promise<void> {
  while (!ctx.signal.aborted) {
    // The small epsilon keeps a planned 1000 from reading 999.9999 after the float arithmetic.
    driver.setPopulation(Math.floor(valueAt(stages, performance.now() - ctx.runStartMs) + 1e-9), POPULATION_CHANGES_PER_TICK);
    await sleep(POPULATION_TICK_MS);
  }
}

/** Runs the chat-stream soak of `ctx.profile` until the run ends, then drains and closes every stream. */
export async function runChatStreams(ctx: ScenarioContext, runTag: string): Promise<void> {
  const settings = ctx.profile.chatStreams;
  const driver = new ChatDriver(ctx, runTag, DELIVERY_WINDOW_MS);
  driver.start();
  const count = driver.participants.length;
  const ramp = settings.stages
    ? followPopulation(ctx, driver, settings.stages)
    : runOpenLoop({
        pacer: linearPacer({ startRatePerSec: settings.rampPerSec, endRatePerSec: settings.rampPerSec, durationMs: (count / settings.rampPerSec) * 1_000 }),
        maxInFlight: Number.MAX_SAFE_INTEGER,
        latenessMs: Number.MAX_SAFE_INTEGER,
        startMs: performance.now(),
        signal: ctx.signal,
        fire: async (slot) => driver.startParticipant(slot),
      });
  // Messages and churn start with the first open session: before it, every slot would be unusable.
  const traffic = firstOpenStream(driver, ctx.signal).then((startMs) =>
    Promise.all([runMessageInjector(ctx, driver, startMs), runMembershipChurn(ctx, driver, startMs)]),
  );
  await Promise.all([ramp, traffic, aborted(ctx.signal)]);
  driver.beginStop();
  const stopMs = performance.now();
  const drainUntil = stopMs + DELIVERY_WINDOW_MS;
  const settleUntil = stopMs + OPEN_SETTLE_MS;
  const waiting = (nowMs: number): boolean => driver.tracker.unresolved > 0 || (nowMs < settleUntil && driver.opensPending() > 0);
  // A stop signal shortens it: messages whose window had not passed are not counted either way.
  while (waiting(performance.now()) && performance.now() < drainUntil && !ctx.hurried?.aborted) await sleep(50);
  // What is still opening now counts as a failed open (timeout:headers), never as nothing.
  driver.closeAll();
}

/** The chat-stream scenario as the engine runs it: nothing to do when the profile has no chat streams. */
export function chatStreamsScenario(runTag: string): Scenario {
  return {
    name: 'chatStreams',
    async run(ctx: ScenarioContext): Promise<void> {
      if (ctx.profile.chatStreams.enabled) await runChatStreams(ctx, runTag);
    },
  };
}
