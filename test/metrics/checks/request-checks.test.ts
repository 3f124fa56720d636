/**
 * Request-level checks and generator.healthy pass only on evidence: no observation is a skip
 * naming what was missing, and a refusal shows its rule only next to an accepted request.
 */
import { describe, expect, it } from 'vitest';
import { CHECK_IDS, type CheckId } from '../../../src/contract/check-ids.js';
import type { CheckResult } from '../../../src/contract/report.js';
import { evaluateChecks } from '../../../src/metrics/checks/evaluate-checks.js';
import { recordEvidence } from '../../../src/metrics/checks/evidence.js';
import { buildGeneratorSummary } from '../../../src/metrics/generator-summary.js';
import { MetricSet } from '../../../src/metrics/metric-set.js';
import { GENERATOR } from '../../../src/metrics/names.js';

function checksOf(total: MetricSet): Record<CheckId, CheckResult> {
  const generator = buildGeneratorSummary(total, { maxEventLoopDelayP99Ms: 50, processes: 1, rssBytes: 0 });
  return Object.fromEntries(evaluateChecks({ total, chat: null, generator }).map((r) => [r.id, r])) as Record<CheckId, CheckResult>;
}

const held = (m: MetricSet, id: CheckId, times = 1): void => {
  for (let i = 0; i < times; i++) recordEvidence(m, id, null);
};

describe('request-level checks', () => {
  it('with no observation every check is a skip with a reason, none a pass', () => {
    const checks = checksOf(new MetricSet());
    for (const id of CHECK_IDS) {
      expect(checks[id].status, id).toBe('skip');
      expect(checks[id].observed, id).toBeNull();
      expect(checks[id].detail.length, id).toBeGreaterThan(10);
    }
    expect(checks['stream.open'].detail).toBe('chat streams were off');
    expect(checks['photo.upload'].detail).toMatch(/no upload in the `filename` part was answered/);
    expect(checks['generator.healthy'].detail).toMatch(/never sampled/);
  });

  it('passes on held observations and fails on the first failed one', () => {
    const m = new MetricSet();
    held(m, 'photo.upload', 5);
    held(m, 'errors.problem_json', 2);
    recordEvidence(m, 'errors.problem_json', 'probe: 401 answered with Content-Type "text/plain"');
    const checks = checksOf(m);
    expect(checks['photo.upload']).toMatchObject({ status: 'pass', observed: 5, detail: '5 observations held' });
    expect(checks['errors.problem_json']).toMatchObject({ status: 'fail', observed: 1 });
    expect(checks['errors.problem_json'].detail).toMatch(/1 of 3 observations failed; first: probe: 401/);
  });

  it.each([
    ['tags.role.required', 'tags.link'],
    ['tags.role.required', 'photo.upload'],
    ['auth.apikey.required', 'photo.upload'],
    ['auth.apikey.required', 'tags.link'],
  ] as Array<[CheckId, CheckId]>)('%s passes on refusals only next to an accepted %s', (refusal, control) => {
    const alone = new MetricSet();
    held(alone, refusal, 3);
    const skipped = checksOf(alone)[refusal];
    expect(skipped.status).toBe('skip');
    expect(skipped.detail).toMatch(/3 refusals seen, but no .* request was accepted/);

    const controlled = new MetricSet();
    held(controlled, refusal, 3);
    held(controlled, control);
    expect(checksOf(controlled)[refusal]).toMatchObject({ status: 'pass', observed: 3 });

    // A control that failed is no control.
    const failedControl = new MetricSet();
    held(failedControl, refusal, 3);
    recordEvidence(failedControl, control, 'status 401 (expected 200)');
    expect(checksOf(failedControl)[refusal].status).toBe('skip');
  });

  it('a refusal that did not happen fails, control or not', () => {
    const m = new MetricSet();
    recordEvidence(m, 'auth.apikey.required', 'probe without X-API-Key: answered 200, expected 401 or 403');
    expect(checksOf(m)['auth.apikey.required'].status).toBe('fail');
  });
});

describe('generator.healthy', () => {
  it('passes on event-loop samples, observing how many', () => {
    const m = new MetricSet();
    for (let i = 0; i < 40; i++) m.histogram(GENERATOR.loopDelayUs).recordValue(300);
    expect(checksOf(m)['generator.healthy']).toMatchObject({ status: 'pass', observed: 40 });
  });

  it('fails over its bound, observing the p99 in ms', () => {
    const m = new MetricSet();
    for (let i = 0; i < 40; i++) m.histogram(GENERATOR.loopDelayUs).recordValue(90_000);
    const check = checksOf(m)['generator.healthy'];
    expect(check.status).toBe('fail');
    expect(check.observed).toBeGreaterThan(50);
  });
});
