/** report.json `auth` (docs/design.md §2.13) from the run's total, and the check auth.token.refresh. */
import type { AuthSummary, CheckResult } from '../contract/report.js';
import { fail, passOnEvidence, skip } from './checks/check-result.js';
import { summarizeHistogram } from './histogram.js';
import type { MetricSet } from './metric-set.js';
import { AUTH_METRICS } from './registry/generator-metrics.js';
import { reportFields } from './registry/report-fields.js';

/** The renewal counts of a run; null when nothing was ever renewed or refused (the section is then left out). */
export function buildAuthSummary(total: MetricSet): AuthSummary | null {
  // The registry test holds these fields to AuthSummary, path for path.
  const summary = reportFields(total, [AUTH_METRICS], {}, (name) => summarizeHistogram(total.histogram(name))) as unknown as AuthSummary;
  const { refreshMs: _histogram, ...counts } = summary;
  return Object.values(counts).some((n) => n > 0) ? summary : null;
}

/**
 * auth.token.refresh: every token renewal worked. Fails on a 401 to a freshly renewed token
 * (the target refuses what its identity provider issued) or a failed token command; passes
 * on renewals; skips, saying why, when no token had to be renewed.
 */
export function tokenRefreshCheck(auth: AuthSummary | null): CheckResult {
  if (auth === null) return skip('auth.token.refresh', 'no token was refused or renewed in this run (no --token-command, or no token expired)');
  const failed = auth.rejectedAfterRefresh + auth.refreshFailures;
  if (failed > 0) {
    return fail(
      'auth.token.refresh',
      failed,
      `${auth.rejectedAfterRefresh} answers 401 to a token renewed just before, ${auth.refreshFailures} token command runs failed (see the auth samples)`,
    );
  }
  const renewals = auth.refreshes + auth.fixturesReloads;
  return passOnEvidence(
    'auth.token.refresh',
    renewals,
    `${auth.refreshes} refreshes (p99 ${auth.refreshMs.p99} ms) and ${auth.fixturesReloads} fixtures re-reads; ${auth.waited} requests waited, ${auth.resent} were sent again, none refused after`,
    `no renewal happened (${auth.waited} requests waited for one)`,
  );
}
