/**
 * A comparison as one self-contained HTML page: the verdict, the regressions, baseline and
 * candidate percentile curves overlaid for every shared latency histogram, and every row.
 */
import type { HistogramSummary, Report } from '../../contract/report.js';
import { METRIC_CATALOG, METRIC_ROOTS, metricRootObject } from '../../metrics/metric-catalog.js';
import { escapeXml } from '../escape.js';
import { htmlDocument } from '../html/document.js';
import { figure, grid } from '../html/parts.js';
import { REPORT_CSS } from '../html/styles.js';
import { percentileChart } from '../svg/percentile-chart.js';
import type { Comparison, ComparisonRow } from './compare.js';
import { COMPARE_HEADERS, comparisonVerdict, rowCells, runLabel } from './compare-cells.js';

const EXTRA_CSS = 'tr.regression td { background: var(--fail-bg); font-weight: 600; } tr.improvement td { background: var(--pass-bg); }';

function rowsTable(rows: readonly ComparisonRow[]): string {
  const numeric = (index: number): string => (index >= 1 && index <= 3 ? ' class="num"' : '');
  const head = COMPARE_HEADERS.map((title, index) => `<th scope="col"${numeric(index)}>${escapeXml(title)}</th>`).join('');
  const body = rows
    .map(
      (row) =>
        `<tr class="${row.status}">${rowCells(row)
          .map((cell, index) => `<td${numeric(index)}>${escapeXml(cell)}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  return `<table class="compare"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function histogramAt(report: Report, root: (typeof METRIC_ROOTS)[number], field: string): HistogramSummary | null {
  const scope = metricRootObject(report, root);
  const value = scope === null ? undefined : (scope as Record<string, unknown>)[field];
  const summary = value as HistogramSummary | undefined;
  return summary && typeof summary.hdr === 'string' && summary.count > 0 ? summary : null;
}

function overlays(baseline: Report, candidate: Report): string[] {
  const figures: string[] = [];
  for (const root of METRIC_ROOTS) {
    for (const [field, def] of Object.entries(METRIC_CATALOG[root])) {
      if (def.kind !== 'histogram') continue;
      const base = histogramAt(baseline, root, field);
      const cand = histogramAt(candidate, root, field);
      if (!base || !cand) continue;
      const name = `${root}.${field}`;
      const svg = percentileChart({
        label: `${name}: baseline and candidate by percentile`,
        series: [
          { name: 'baseline', hdr: base.hdr },
          { name: 'candidate', hdr: cand.hdr },
        ],
      });
      figures.push(figure(name, svg));
    }
  }
  return figures;
}

/** Renders the comparison page; the reports are needed for the percentile overlays. */
export function renderCompareHtml(comparison: Comparison, baseline: Report, candidate: Report): string {
  const failed = comparison.regressions.length > 0;
  const verdict = `<div class="verdict ${failed ? 'fail' : 'pass'}"><span class="word">${failed ? 'REGRESSION' : 'NO REGRESSION'}</span><p>${escapeXml(comparisonVerdict(comparison))}</p></div>`;
  const runs = `<ul><li>${escapeXml(runLabel(comparison, 'baseline'))}</li><li>${escapeXml(runLabel(comparison, 'candidate'))}</li></ul>`;
  const warnings = comparison.warnings.length
    ? `<div class="warnings"><strong>Comparability warnings</strong><ul>${comparison.warnings.map((warning) => `<li>${escapeXml(warning)}</li>`).join('')}</ul></div>`
    : '';
  const regressions = failed ? `<section id="regressions"><h2>Regressions</h2>${rowsTable(comparison.regressions)}</section>` : '';
  const charts = overlays(baseline, candidate);
  const chartSection = charts.length ? `<section id="latency"><h2>Latency by percentile, baseline vs candidate</h2>${grid(charts)}</section>` : '';
  return htmlDocument(
    `${failed ? 'REGRESSION' : 'OK'} · coachbench compare · ${comparison.baseline.runId} → ${comparison.candidate.runId}`,
    `${REPORT_CSS}${EXTRA_CSS}`,
    [
      `<header><h1>coachbench compare</h1>${runs}${verdict}${warnings}</header>`,
      regressions,
      chartSection,
      `<section id="all"><h2>Every compared metric (${comparison.rows.length})</h2>${rowsTable(comparison.rows)}</section>`,
      '<footer>A change counts as a regression only when it is worse by more than the allowed percentage and by at least the absolute floor of its unit (see docs/reports.md).</footer>',
    ],
  );
}
