/**
 * Open workload model: requests start on an absolute schedule (constant or ramping rate)
 * whatever the target's speed, through the run's undici dispatcher, at most `maxInFlight`
 * at once; a slot that finds no place is dropped and counted (runOpenLoop). Latency counts
 * from the slot's intended start (coordinated omission corrected, once: no expected-interval
 * back-fill on top), service time from the actual start.
 */

import { performance } from 'node:perf_hooks';
import { integrateStages } from '../../contract/profile/driven-plan.js';
import type { ThroughputSettings } from '../../contract/profile/profile.js';
import { schedulePacer } from '../../engine/arrival-pacer.js';
import { sendRenewing } from '../../engine/auth/credentials.js';
import { runOpenLoop } from '../../engine/open-loop.js';
import type { ScenarioContext } from '../../engine/scenario.js';
import { withTraceparent } from '../../engine/transport.js';
import { RAMP_SETTLE_MS } from '../../metrics/checks/load-achieved.js';
import { throughputNames } from '../../metrics/names.js';
import { cutAtEndName, scheduledSlotsName } from '../../metrics/throughput-extra-names.js';
import { splitApiBase } from '../api-base.js';
import { exchange } from './http-exchange.js';
import { targetStatusOfExchange } from './response-check.js';
import { recordFailure, recordResponse, type Workload } from './workload.js';

/** A slot that starts more than this after its intended time counts as late (timers tick at ~1 ms). */
export const LATE_SLOT_MS = 10;

/**
 * Runs the schedule from now to `ctx.endMs`, then waits for requests in flight (each bounded by
 * timeoutMs). The scenario lasts until the run stops even when its last slot is answered sooner,
 * and its active time is the schedule's span up to the stop, drain excluded: the achieved rate
 * is judged over the time the schedule offered load (docs/throughput.md, open model).
 */
export async function runOpenModel<M>(ctx: ScenarioContext, settings: ThroughputSettings, workload: Workload<M>): Promise<void> {
  const names = throughputNames(workload.scenario);
  const { origin } = splitApiBase(ctx.apiBase);
  // Stages are times in the run (docs/design.md §2.11); a plain rate starts when the scenario does.
  const startMs = settings.stages ? ctx.runStartMs : performance.now();
  const pacer = schedulePacer(
    {
      arrivals: settings.arrivals,
      stages: settings.stages,
      startRatePerSec: settings.ratePerSec,
      endRatePerSec: settings.rampToPerSec,
      durationMs: settings.stages ? ctx.endMs - ctx.runStartMs : Math.max(0, ctx.endMs - startMs),
    },
    { seed: ctx.profile.seed, stream: ctx.arrivalStream, workload: workload.arrivalKey ?? (workload.scenario as 'photoUpload' | 'tagLink') },
  );
  const cut = ctx.cut;
  const stopped = stopTimeOf(ctx.signal);
  await runOpenLoop({
    pacer,
    maxInFlight: settings.maxInFlight,
    latenessMs: LATE_SLOT_MS,
    startMs,
    // In-flight requests drain at stop (the last second is not all errors), for a bounded grace.
    signal: ctx.signal,
    fire: async (slot, intendedMs) => {
      const { spec, memo } = workload.next(slot);
      // Made here, not by the dispatcher, to keep its id beside the latency (docs/design.md §2.12).
      const { headers: traced, traceId, spanId } = withTraceparent(spec.headers, ctx.transport);
      const { answer: result, resent } = await sendRenewing(
        ctx.credentials,
        traced,
        (headers) => exchange(ctx.dispatcher, origin, { ...spec, headers }, settings.timeoutMs, cut),
        targetStatusOfExchange,
      );
      // Read ctx.metrics only now: the run swaps in a new interval set every second.
      const metrics = ctx.metrics;
      if (!result.ok && cut.aborted) {
        // Cut by the end of the run, not failed by the target: judged as nothing, and no active time.
        metrics.inc(cutAtEndName(workload.scenario));
        return;
      }
      if (result.ok) {
        // A request sent again with a renewed token is timed from that send: the wait for the
        // token command is the identity provider's time (auth.refreshMs), not the target's.
        const timing = { latencyMs: result.endMs - (resent ? result.startMs : intendedMs), serviceMs: result.endMs - result.startMs };
        recordResponse(metrics, workload, memo, result.view, timing, traceId, spanId);
      } else {
        recordFailure(metrics, workload, memo, result.failure, result.detail);
      }
    },
    onLate: (_slot, lateByMs) => {
      ctx.metrics.inc(names.lateSlots);
      // A slot this late is not the planned shape (a staged schedule's slots owed while the scenario got ready, sent at once).
      if (lateByMs > RAMP_SETTLE_MS) ctx.metrics.inc(names.overdueSlots);
    },
    onDropped: () => ctx.metrics.inc(names.droppedSlots),
  });
  // A schedule whose last answer came early still holds the scenario, and so the run, to its end.
  const stoppedMs = await stopped;
  const spanMs = Math.max(0, Math.min(stoppedMs, ctx.endMs) - startMs);
  ctx.metrics.peak(names.activeMs, spanMs);
  // The planned arrivals (Poisson: as drawn) that achieved rates are judged against: the whole
  // schedule, or of a stopped run the slots due by the stop, and the plan's arrivals of the time
  // the scenario took to get ready beyond the grace (never started: a slow setup is load not driven).
  const beforeSchedule = settings.stages ? 0 : plannedBeforeSchedule(settings, ctx, Math.min(startMs, stoppedMs));
  ctx.metrics.inc(scheduledSlotsName(workload.scenario), Math.min(pacer.totalSlots, pacer.dueBy(spanMs)) + beforeSchedule);
}

/**
 * The plan's arrivals (ratePerSec to rampToPerSec over the run) from RAMP_SETTLE_MS into the run
 * (the time a scenario is given to get ready, as the streams' ramp is given to settle,
 * docs/design.md §5.4) to the moment a plain-rate schedule began: the schedule holds the run's remaining time
 * only, so without these a scenario that spent most of the run getting ready would be judged
 * on the little it had left. A staged schedule needs none: it is laid from the run's start,
 * and the slots it was not ready for start late or are dropped, which the check counts.
 */
function plannedBeforeSchedule(settings: ThroughputSettings, ctx: ScenarioContext, scheduleStartMs: number): number {
  const rate = [{ name: 'rate', named: false, startMs: 0, endMs: ctx.endMs - ctx.runStartMs, from: settings.ratePerSec, to: settings.rampToPerSec }];
  return Math.round(integrateStages(rate, RAMP_SETTLE_MS, scheduleStartMs - ctx.runStartMs));
}

/** performance.now() when `signal` aborts (the run's end or an early stop). */
function stopTimeOf(signal: AbortSignal): Promise<number> {
  if (signal.aborted) return Promise.resolve(performance.now());
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(performance.now()), { once: true }));
}
