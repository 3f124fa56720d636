/**
 * Sends probe requests (a handful, one at a time, not load): each answer is inspected like
 * a load answer, every error answer is errors.problem_json evidence, and probes count in
 * `probes.requests` only, never in the throughput scenarios' numbers. A probe refused with
 * 401 for its bearer token is sent again with the renewed token, as a load request is
 * (docs/design.md §2.13); one that looks for a refusal is sent once.
 */

import type { CheckId } from '../../contract/check-ids.js';
import { sendRenewing } from '../../engine/auth/credentials.js';
import type { ScenarioContext } from '../../engine/scenario.js';
import { recordEvidence } from '../../metrics/checks/evidence.js';
import { cutAtEndName, PROBE_NAMES } from '../../metrics/throughput-extra-names.js';
import { splitApiBase } from '../api-base.js';
import { exchange, type HttpRequestSpec } from './http-exchange.js';
import { type Inspection, inspectResponse, proxyAnswered, recordProblemEvidence, targetStatusOfExchange } from './response-check.js';

/** A probe's inspected answer, or why there was none (`cut`: the run ended first, which is no evidence). */
export type ProbeOutcome = { ok: true; inspection: Inspection } | { ok: false; detail: string; cut: boolean };

/** Sends probes through the run's dispatcher and records their evidence. */
export class ProbeClient {
  readonly basePath: string;
  private readonly origin: string;
  private readonly cut: AbortSignal;

  constructor(
    private readonly ctx: ScenarioContext,
    private readonly timeoutMs: number,
  ) {
    const { origin, basePath } = splitApiBase(ctx.apiBase);
    this.origin = origin;
    this.basePath = basePath;
    this.cut = ctx.cut;
  }

  /** The current interval's metrics (the run swaps the set every second). */
  get metrics() {
    return this.ctx.metrics;
  }

  /**
   * Sends `spec`; with `renew` (the default), a 401 to a token that the run can renew is sent
   * once more with the renewed one, so an expired token is not judged as the target's answer.
   */
  async send(spec: HttpRequestSpec, label: string, renew = true): Promise<ProbeOutcome> {
    const { answer: result } = await sendRenewing(
      renew ? this.ctx.credentials : null,
      spec.headers,
      (headers) => exchange(this.ctx.dispatcher, this.origin, { ...spec, headers }, this.timeoutMs, this.cut),
      targetStatusOfExchange,
      undefined,
      // The refused first send was a request too.
      () => this.metrics.inc(PROBE_NAMES.requests),
    );
    this.metrics.inc(PROBE_NAMES.requests);
    if (!result.ok && this.cut.aborted) {
      this.metrics.inc(cutAtEndName('probes'));
      this.log(`${label}: cut by the end of the run before an answer; not evidence`);
      return { ok: false, detail: result.detail, cut: true };
    }
    if (!result.ok) return { ok: false, detail: result.detail, cut: false };
    const inspection = inspectResponse(result.view);
    recordProblemEvidence(this.metrics, inspection, label);
    return { ok: true, inspection };
  }

  /**
   * Records evidence for `check` that the answer was a refusal (401 or 403). Sent once: its
   * 401 is the answer looked for, and renewing the token for it would run the token command
   * and count the refusal again as one of a renewed token. With `whyNot401`, a 401 counts only
   * when it resolves to null; otherwise the probe is no evidence, and the log says why.
   */
  async expectRefused(check: CheckId, spec: HttpRequestSpec, label: string, whyNot401?: () => Promise<string | null>): Promise<void> {
    const outcome = await this.send(spec, label, false);
    if (!outcome.ok) return outcome.cut ? undefined : this.fail(check, `${label}: no complete answer (${outcome.detail})`);
    const { status } = outcome.inspection;
    // A proxy's own answer (its 403, its 401) is no refusal of the target's.
    const proxy = proxyAnswered(outcome.inspection);
    if (proxy !== null) return this.fail(check, `${label}: ${proxy} (a proxy answered, not the target), expected the target's 401 or 403`);
    if (status !== 401 && status !== 403) return this.evidence(check, `${label}: answered ${status}, expected 401 or 403`);
    const notEvidence = status === 401 && whyNot401 !== undefined ? await whyNot401() : null;
    if (notEvidence === null) this.evidence(check, null);
    else this.log(`${check}: ${label} answered 401, no evidence: ${notEvidence}`);
  }

  evidence(check: CheckId, failure: string | null): void {
    recordEvidence(this.metrics, check, failure);
    if (failure !== null) this.log(`${check} failed: ${failure}`);
  }

  fail(check: CheckId, failure: string): void {
    this.evidence(check, failure);
  }

  /** A line in the probe log (samples under `probes`), for findings that are no check's evidence. */
  log(text: string): void {
    this.metrics.sample(PROBE_NAMES.samples, text);
  }

  /** Whether the run is stopping: probes end early rather than delay the stop. */
  get stopped(): boolean {
    return this.ctx.signal.aborted;
  }
}
