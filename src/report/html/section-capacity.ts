/** The capacity search: each SLO metric against offered load, the knee, and every step. */

import type { CapacityResult, Report } from '../../contract/report.js';
import type { MetricUnit } from '../../metrics/metric-catalog.js';
import { parseSlo, readCapacity, stopReason } from '../capacity.js';
import { escapeXml } from '../escape.js';
import { formatCount, formatValue } from '../format.js';
import { lineChart } from '../svg/line-chart.js';
import { badge, figure, grid, raw, section, table } from './parts.js';

const UNIT_SUFFIX: Record<MetricUnit, string> = {
  ms: ' (ms)',
  count: '',
  ratio: ' (fraction)',
  perSec: ' (/s)',
  percent: ' (%)',
  bytes: ' (bytes)',
  flag: ' (1 = yes)',
  seconds: ' (s)',
};

function sloChart(capacity: CapacityResult, expression: string): string {
  const slo = parseSlo(expression);
  const metric = slo?.metric;
  const svg = lineChart({
    kind: 'capacity',
    label: `${expression}: observed value by offered load`,
    xTitle: `Offered load (${capacity.loadUnit})`,
    yTitle: metric ? `${metric.sub ?? metric.field}${UNIT_SUFFIX[metric.unit]}` : 'observed',
    series: [{ name: 'observed', points: capacity.steps.map((step) => [step.load, step.values[expression] ?? null] as const) }],
    markers: true,
    integerY: metric?.unit === 'count',
    ...(slo ? { references: [{ name: `SLO ${slo.op} ${formatValue(slo.limit, slo.metric.unit)}`, value: slo.limit }] } : {}),
  });
  return figure(expression, svg);
}

function stepsTable(capacity: CapacityResult): string {
  const knee = capacity.maxSustainableLoad;
  const columns = [
    { title: `Load (${capacity.loadUnit})`, numeric: true },
    { title: 'Held' },
    ...capacity.slos.map((expression) => ({ title: expression, numeric: true })),
    { title: 'Failed checks' },
    { title: 'Step report' },
  ];
  const rows = capacity.steps.map((step) => [
    `${formatCount(step.load)}${step.load === knee ? ' (knee)' : ''}`,
    badge(step.pass ? 'pass' : 'fail'),
    ...capacity.slos.map((expression) => {
      const slo = parseSlo(expression);
      const value = step.values[expression] ?? null;
      return slo ? formatValue(value, slo.metric.unit) : value === null ? '—' : formatCount(value);
    }),
    step.failedChecks.length ? step.failedChecks.join(', ') : 'none',
    raw(`<code>${escapeXml(step.reportDir)}</code>`),
  ]);
  return table(columns, rows, 'capacity');
}

export function capacitySection(report: Report): string {
  const capacity = readCapacity(report);
  if (!capacity) return '';
  const knee =
    capacity.maxSustainableLoad === null
      ? `No load step held every SLO (the first step, ${formatCount(capacity.steps[0]?.load ?? 0)} ${capacity.loadUnit}, already broke one).`
      : `Highest load that held every SLO: ${formatCount(capacity.maxSustainableLoad)} ${capacity.loadUnit}.`;
  const failing = capacity.firstFailingLoad === null ? '' : ` First failing load: ${formatCount(capacity.firstFailingLoad)} ${capacity.loadUnit}.`;
  const summary =
    `<p><strong>${escapeXml(knee)}</strong>${escapeXml(failing)}</p>` +
    `<p class="muted">${escapeXml(`Searched ${capacity.variable} over ${capacity.steps.length} steps; the search stopped because ${stopReason(capacity.stoppedBecause)}. The rest of this report is the knee's step; every step's own report is in its folder.`)}</p>`;
  return section('capacity', 'Capacity search', summary + grid(capacity.slos.map((expression) => sloChart(capacity, expression))) + stepsTable(capacity));
}
