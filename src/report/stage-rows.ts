/**
 * The per-stage table as plain cells (docs/design.md §2.11): one row per named stage with the
 * headline metrics over it. Shared by the HTML and Markdown reports so they never disagree.
 */
import type { Report, StageSummary } from '../contract/report.js';
import { formatCount, formatMs, formatRatio, formatSeconds } from './format.js';
import type { Column } from './scenario-rows.js';

export const STAGE_COLUMNS: readonly Column[] = [
  { title: 'Stage' },
  { title: 'Span' },
  { title: 'Peak open streams', numeric: true },
  { title: 'Delivery p50', numeric: true },
  { title: 'Delivery p99', numeric: true },
  { title: 'KEEP_ALIVE violations', numeric: true },
  { title: 'Requests/s', numeric: true },
  { title: 'Request errors', numeric: true },
  { title: 'Request p99 (slower)', numeric: true },
];

const ms = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : formatMs(value));

function stageRow(stage: StageSummary): string[] {
  const chat = stage.chatStreams;
  const requests = stage.requests;
  const total = requests.reduce((sum, r) => sum + r.requests, 0);
  const errors = requests.reduce((sum, r) => sum + r.errorRate * r.requests, 0);
  const p99s = requests.map((r) => r.latencyP99Ms).filter((value): value is number => value !== null);
  return [
    stage.name,
    stage.intervals === 0
      ? `${formatSeconds(stage.startSec)}–${formatSeconds(stage.endSec)} (no interval)`
      : `${formatSeconds(stage.startSec)}–${formatSeconds(stage.endSec)}`,
    chat ? formatCount(chat.peakConcurrent) : '—',
    ms(chat?.eventLatencyP50Ms),
    ms(chat?.eventLatencyP99Ms),
    chat ? formatCount(chat.keepAliveViolations) : '—',
    requests.length > 0 ? formatCount(Math.round(requests.reduce((sum, r) => sum + r.perSec, 0))) : '—',
    requests.length > 0 && total > 0 ? formatRatio(errors / total) : '—',
    p99s.length > 0 ? formatMs(Math.max(...p99s)) : '—',
  ];
}

export function stageRows(report: Report): string[][] {
  return (report.stages ?? []).map(stageRow);
}
