/**
 * Bearer-token renewal (report.json `auth`, docs/design.md §2.13): how often tokens were
 * renewed and how long the identity provider took, beside what the check auth.token.refresh
 * concluded. Shown only when the run renewed or was refused anything.
 */
import type { Report } from '../../contract/report.js';
import { formatCount, formatMs } from '../format.js';
import { keyValues, section } from './parts.js';

export function authSection(report: Report): string {
  const auth = report.auth;
  if (!auth) return '';
  const refreshMs =
    auth.refreshMs.count > 0 ? `p50 ${formatMs(auth.refreshMs.p50)}, p99 ${formatMs(auth.refreshMs.p99)}, max ${formatMs(auth.refreshMs.max)}` : 'none';
  const figures = keyValues([
    ['Token command runs (after the first)', formatCount(auth.refreshes)],
    ['Token command time', refreshMs],
    ['Token command failures', formatCount(auth.refreshFailures)],
    ['Fixtures file re-reads', `${formatCount(auth.fixturesReloads)} (${formatCount(auth.fixturesReloadFailures)} did not validate)`],
    ['Answered 401, waited for a renewal', formatCount(auth.waited)],
    ['Sent again with a renewed token', formatCount(auth.resent)],
    ['Closed model: answers to a token being replaced, left out', formatCount(auth.staleAnswers)],
    ['401 to a token renewed just before', formatCount(auth.rejectedAfterRefresh)],
  ]);
  const intro =
    auth.rejectedAfterRefresh + auth.refreshFailures > 0
      ? '<p><strong>Token renewal failed</strong>: the requests refused after a renewal are counted as errors of their scenarios (auth.token.refresh).</p>'
      : '<p class="muted">Expired tokens were renewed; requests that waited for a renewal were sent again and are counted once, with their answer.</p>';
  return section('auth', 'Token renewal', intro + figures);
}
