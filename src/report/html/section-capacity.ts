/** The capacity search curve (SLO metric vs load), when the report carries one. */
import { readCapacity } from '../capacity.js';
import { escapeXml } from '../escape.js';
import { formatCount } from '../format.js';
import type { Report } from '../report-types.js';
import { lineChart } from '../svg/line-chart.js';
import { tickLabel } from '../svg/scale.js';
import { badge, figure, grid, section, table } from './parts.js';

export function capacitySection(report: Report): string {
  const capacity = readCapacity(report);
  if (!capacity) return '';
  const unit = capacity.unit ? ` (${capacity.unit})` : '';
  const svg = lineChart({
    kind: 'capacity',
    label: `${capacity.metric} by offered load`,
    xTitle: `Offered load (${capacity.loadUnit})`,
    // The full metric name is in the caption; a rotated axis title has room for a short one.
    yTitle: `${capacity.metric.split('.').pop() ?? 'value'}${unit}`,
    series: [{ name: capacity.metric, points: capacity.points.map((point) => [point.load, point.value] as const) }],
    markers: true,
    ...(capacity.slo !== null ? { references: [{ name: `SLO ${tickLabel(capacity.slo)}${capacity.unit ? ` ${capacity.unit}` : ''}`, value: capacity.slo }] } : {}),
  });
  const verdict =
    capacity.maxSustainableLoad === null
      ? 'No load step met the SLO.'
      : `Highest load that met the SLO: ${formatCount(capacity.maxSustainableLoad)} ${capacity.loadUnit}.`;
  const steps = table(
    [{ title: 'Load', numeric: true }, { title: capacity.metric, numeric: true }, { title: 'SLO' }],
    capacity.points.map((point) => [
      `${formatCount(point.load)} ${capacity.loadUnit}`,
      point.value === null ? '—' : `${formatCount(point.value)}${capacity.unit ? ` ${capacity.unit}` : ''}`,
      point.pass === null ? '—' : badge(point.pass ? 'pass' : 'fail'),
    ]),
    'capacity',
  );
  return section('capacity', 'Capacity search', `<p><strong>${escapeXml(verdict)}</strong></p>${grid([figure(`${capacity.metric} by load`, svg), steps])}`);
}
