/**
 * What photo upload and tag link were asked to drive and drove, read from the run's counters
 * for load.achieved (docs/design.md §5.4).
 */
import { neverReachedTarget } from '../../contract/failure-codes.js';
import { integrateStages } from '../../contract/profile/driven-plan.js';
import type { Profile } from '../../contract/profile/profile.js';
import type { RunPlan } from '../../contract/profile/stage-plan.js';
import { dealtShare } from '../../util/dealt-share.js';
import type { MetricSet } from '../metric-set.js';
import { requestKindKey, throughputNames } from '../names.js';
import { cutAtEndName, scheduledSlotsName, TAG_EXTRA } from '../throughput-extra-names.js';
import type { RequestLoad } from './load-achieved.js';
import { kindSkippedName } from './requests-check.js';

/** Failures by code (`net:ECONNREFUSED`, ...) among counters `<prefix><code>` whose code starts with `codePrefix`. */
function failuresUnder(total: MetricSet, prefix: string, codePrefix: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(total.encodeCounters())) {
    if (name.startsWith(prefix + codePrefix) && value > 0) out[name.slice(prefix.length)] = value;
  }
  return out;
}

/** Failures by code of the requests that never reached the target (neverReachedTarget). */
function unreachedFailures(total: MetricSet, prefix: string): Record<string, number> {
  const all = { ...failuresUnder(total, prefix, 'net:'), ...failuresUnder(total, prefix, 'timeout:connect'), ...failuresUnder(total, prefix, 'proxy:') };
  return Object.fromEntries(Object.entries(all).filter(([code]) => neverReachedTarget(code)));
}

/**
 * One entry per request scenario that ran. Open model: the slots planned are the schedule's
 * (`scheduledSlots`), no more than the plan holds up to the run's end (a stopped run is judged
 * on what it had time for); started slots are the requests answered or failed plus those cut at
 * the end, of which those that failed at the connection (or were answered by a proxy) never
 * reached the target. Closed model: its connection errors (`net:*` failures, which only a connection
 * raises there) against the connections opened: a shard's dealt share of them (docs/design.md §2.2),
 * and how late its connections opened (the latest of its processes).
 */
export function requestLoads(
  total: MetricSet,
  profile: Pick<Profile, 'photoUpload' | 'tagLink' | 'requests'>,
  plan: RunPlan,
  runMs: number,
  shard: { index: number; count: number } | null,
  /** Planned arrivals of driver workers that died, by scenario: their scheduledSlots died with them. */
  lostScheduled: Readonly<Record<string, number>> = {},
): RequestLoad[] {
  const loads: RequestLoad[] = [];
  // Request kinds are judged like the built-ins, each on its own schedule (docs/design.md §2.15).
  const kinds = (profile.requests?.kinds ?? []).map((kind) => ({ scenario: requestKindKey(kind.name), settings: kind }));
  const builtIn = (['photoUpload', 'tagLink'] as const).map((scenario) => ({ scenario, settings: profile[scenario] }));
  for (const { scenario, settings } of [...builtIn, ...kinds]) {
    if (!settings.enabled) continue;
    // Without a coach token tag link sends nothing: tags.link says so (no evidence), not this check.
    if (scenario === 'tagLink' && total.count(TAG_EXTRA.skipped) > 0) continue;
    // A kind without its coach token sends nothing: requests.expectations says so (no evidence), not this check.
    if (scenario.startsWith('requests.') && total.count(kindSkippedName(scenario.slice('requests.'.length))) > 0) continue;
    const names = throughputNames(scenario);
    const stages = plan.scenarios.find((entry) => entry.scenario === scenario)?.stages ?? [];
    const byPlan = integrateStages(stages, 0, Math.min(runMs, plan.durationMs));
    const own = total.count(scheduledSlotsName(scenario));
    const scheduled = own > 0 ? own + (lostScheduled[scenario] ?? 0) : 0;
    loads.push({
      scenario,
      model: settings.model,
      planned: scheduled > 0 ? Math.min(scheduled, byPlan) : byPlan,
      started: total.count(names.requests) + total.count(cutAtEndName(scenario)),
      late: total.count(names.lateSlots),
      overdue: total.count(names.overdueSlots),
      dropped: total.count(names.droppedSlots),
      connections: settings.model === 'closed' ? dealtShare(settings.connections, shard?.index ?? 0, shard?.count ?? 1) : 0,
      lateStartMs: settings.model === 'closed' ? total.peakOf(names.lateStartMs) : 0,
      connectionErrors: settings.model === 'closed' ? failuresUnder(total, names.errorKind(''), 'net:') : {},
      unreached: settings.model === 'open' ? unreachedFailures(total, names.errorKind('')) : {},
    });
  }
  return loads;
}
