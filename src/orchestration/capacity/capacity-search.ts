/**
 * A capacity search (profiles/capacity.json): run the profile at rising load, one short
 * session per step against the same target, until an SLO breaks; refine between the last
 * good and first bad step; report the knee and each SLO metric's curve against load.
 */
import { join } from 'node:path';
import type { Profile } from '../../contract/profile/profile.js';
import type { CapacityResult, CapacityStep } from '../../contract/report.js';
import { exitCodeOf, type RunOutcome, runSession, type SessionOptions, type SessionOutcome } from '../run-session.js';
import { saveReport } from '../save-report.js';
import { knee, nextLoad, parseSearch, SEARCH_VARIABLES, type SearchVariable } from './search-plan.js';

/** The profile with the searched variable set to `load` (and its scenario switched on). */
export function withLoad(profile: Profile, variable: SearchVariable, load: number): Profile {
  const next: Profile = structuredClone(profile);
  switch (variable) {
    case 'chatStreams.participants':
      next.chatStreams.participants = load;
      break;
    case 'chatStreams.messageRatePerSec':
      next.chatStreams.messageRatePerSec = load;
      break;
    case 'photoUpload.ratePerSec':
      Object.assign(next.photoUpload, { enabled: true, model: 'open', ratePerSec: load, rampToPerSec: load });
      break;
    case 'tagLink.ratePerSec':
      Object.assign(next.tagLink, { enabled: true, model: 'open', ratePerSec: load, rampToPerSec: load });
      break;
  }
  return next;
}

export async function runCapacitySearch(session: SessionOptions): Promise<RunOutcome> {
  const { config } = session;
  const search = parseSearch(config.profile.search ?? {}, config.profile.source);
  const steps: CapacityStep[] = [];
  const outcomes = new Map<number, SessionOutcome>();
  /** Steps whose report is not where the search's report says (`reportDir`): the final report names them. */
  const misplaced: string[] = [];
  let stoppedBecause: CapacityResult['stoppedBecause'] = 'max';
  for (let load = nextLoad(search, steps); load !== null; load = nextLoad(search, steps)) {
    const profile = { ...withLoad(config.profile, search.variable, load), durationMs: search.stepDurationMs, search: null };
    const reportDir = join('steps', `${String(steps.length + 1).padStart(2, '0')}-${load}`);
    // Each step ends by aborting its own controller; a signal stops the current step and the search.
    const stepStop = new AbortController();
    const forward = (): void => stepStop.abort();
    session.stop.signal.addEventListener('abort', forward, { once: true });
    const outcome = await runSession({
      ...session,
      config: { ...config, profile, thresholds: [...config.thresholds, ...search.slos] },
      outDir: join(session.outDir, reportDir),
      stop: stepStop,
      // The knee step and the search's report share a run id: the step falls back to its own folder.
      fallbackUnder: reportDir,
    }).finally(() => session.stop.signal.removeEventListener('abort', forward));
    const report = outcome.report;
    const stepDir = join(session.outDir, reportDir);
    if (outcome.outDir !== stepDir) {
      misplaced.push(
        `step ${reportDir}: its report could not be written to ${stepDir}; ${outcome.outDir === null ? 'it was not written at all' : `it is in ${outcome.outDir}`}`,
      );
    }
    const sloResults = report.thresholds.filter((t) => search.slos.includes(t.expression));
    const failedChecks = report.checks.filter((c) => c.status === 'fail').map((c) => c.id);
    steps.push({
      load,
      pass: sloResults.every((t) => t.status === 'pass') && failedChecks.length === 0,
      values: Object.fromEntries(sloResults.map((t) => [t.expression, t.observed])),
      failedChecks,
      reportDir,
    });
    outcomes.set(load, outcome);
    if (session.stoppedBy() !== null) {
      stoppedBecause = 'interrupted';
      break;
    }
    if (report.generator.saturated) {
      // Numbers past this point would describe the driver: stop and say so.
      stoppedBecause = 'saturated';
      break;
    }
    if (!steps[steps.length - 1]!.pass) stoppedBecause = 'slo';
  }
  const best = knee(steps);
  const failing = steps.filter((s) => !s.pass).map((s) => s.load);
  const capacity: CapacityResult = {
    variable: search.variable,
    loadUnit: SEARCH_VARIABLES[search.variable],
    slos: search.slos,
    steps: [...steps].sort((a, b) => a.load - b.load),
    maxSustainableLoad: best,
    firstFailingLoad: failing.length > 0 ? Math.min(...failing) : null,
    stoppedBecause,
  };
  // The search's report is the knee's step (or the first step when none held), plus the curve.
  const base = outcomes.get(best ?? steps[0]!.load)!.built;
  // The knee step's own copy carried its folder's warning; the search's report is built again, so it says so itself.
  const inputs = { ...base.inputs, warnings: [...base.inputs.warnings, ...misplaced], capacity: { result: capacity, profile: config.profile } };
  const saved = await saveReport(session.outDir, { total: base.total, inputs }, session);
  return { exitCode: exitCodeOf(saved.report, session.stoppedBy(), saved.dir !== null), report: saved.report, outDir: saved.dir, written: saved.material };
}
