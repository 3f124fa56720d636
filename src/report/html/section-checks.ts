/** The conformance checks and thresholds, each with its verdict, observed value and reason. */

import type { Report } from '../../contract/report.js';
import { escapeXml } from '../escape.js';
import { formatObserved } from '../format.js';
import { formatThresholdObserved } from '../report-facts.js';
import { badge, raw, section, table } from './parts.js';

export function checksSection(report: Report): string {
  const checks = table(
    [{ title: 'Status' }, { title: 'Check' }, { title: 'Observed', numeric: true }, { title: 'Detail' }],
    report.checks.map((check) => [badge(check.status), raw(`<code>${escapeXml(check.id)}</code>`), formatObserved(check.observed), check.detail]),
    'checks',
  );
  const thresholds =
    report.thresholds.length === 0
      ? '<p class="muted">No thresholds were set (profile <code>thresholds</code> or <code>--threshold</code>).</p>'
      : table(
          [{ title: 'Status' }, { title: 'Threshold' }, { title: 'Observed', numeric: true }],
          report.thresholds.map((threshold) => [badge(threshold.status), threshold.expression, formatThresholdObserved(threshold)]),
          'thresholds',
        );
  return section('checks', 'Checks and thresholds', `<h3>Conformance checks</h3>${checks}<h3>Thresholds</h3>${thresholds}`);
}
