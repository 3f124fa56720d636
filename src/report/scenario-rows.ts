/**
 * The scenario overview as plain cells: what load ran, what came out, and the headline
 * latency percentiles. Shared by the HTML and Markdown reports so they never disagree.
 */
import type { ChatStreamsSummary, HistogramSummary, Report, ThroughputSummary } from '../contract/report.js';
import { formatCount, formatMs, formatRate, formatRatio, formatValue } from './format.js';

export interface Column {
  title: string;
  numeric?: boolean;
}

const latencyCells = (summary: HistogramSummary): string[] =>
  summary.count === 0 ? ['—', '—', '—', '—'] : [formatMs(summary.p50), formatMs(summary.p99), formatMs(summary.p999), formatMs(summary.max)];

function chatRow(chat: ChatStreamsSummary, durationSec: number): string[] {
  const events = Object.values(chat.events).reduce((sum, value) => sum + value, 0);
  return [
    'Chat streams (event latency)',
    `${formatCount(chat.participants)} participants, peak ${formatCount(chat.peakConcurrent)} open streams`,
    `${formatCount(chat.deliveriesReceived)} of ${formatCount(chat.deliveriesExpected)} deliveries; ${formatCount(chat.dropped)} dropped, ${formatCount(chat.stalled)} stalled`,
    durationSec > 0 ? formatRate(events / durationSec, 'events') : '—',
    ...latencyCells(chat.eventLatencyMs),
  ];
}

/** Chat-session stream opens, request → headers (openLatencyMs, judged by the profiles' thresholds). */
function openRow(chat: ChatStreamsSummary): string[] {
  const held = chat.firstKeepAliveWithHeaders ? `; ${formatCount(chat.firstKeepAliveWithHeaders)} streams' headers held until the first KEEP_ALIVE` : '';
  return [
    'Chat stream opens (request → headers)',
    `${formatCount(chat.opened + chat.openFailed)} chat-session opens`,
    `${formatCount(chat.openFailed)} failed${held}`,
    '—',
    ...latencyCells(chat.openLatencyMs),
  ];
}

function throughputRow(name: string, summary: ThroughputSummary): string[] {
  const load = summary.model === 'open' ? `open model, ${formatValue(summary.requestedRatePerSec, 'perSec')} requested` : 'closed model';
  return [
    `${name} (latency${summary.model === 'open' ? ' from intended start' : ''})`,
    load,
    `${formatCount(summary.requests)} requests, ${formatCount(summary.errors)} errors (${formatRatio(summary.errorRate)})`,
    formatValue(summary.throughputPerSec, 'perSec'),
    ...latencyCells(summary.latencyMs),
  ];
}

/** Columns of the scenario overview (HTML and Markdown). */
export const SCENARIO_COLUMNS: readonly Column[] = [
  { title: 'Scenario' },
  { title: 'Load' },
  { title: 'Outcome' },
  { title: 'Throughput', numeric: true },
  { title: 'p50', numeric: true },
  { title: 'p99', numeric: true },
  { title: 'p99.9', numeric: true },
  { title: 'max', numeric: true },
];

/** One row per scenario (off scenarios included, so a reader sees what did not run). */
export function scenarioRows(report: Report): string[][] {
  const { chatStreams, photoUpload, tagLink } = report.scenarios;
  const off = (name: string): string[] => [name, 'off', '—', '—', '—', '—', '—', '—'];
  const rows = [
    chatStreams ? chatRow(chatStreams, report.durationMs / 1_000) : off('Chat streams'),
    ...(chatStreams ? [openRow(chatStreams)] : []),
    photoUpload ? throughputRow('Photo upload', photoUpload) : off('Photo upload'),
    tagLink ? throughputRow('Tag link', tagLink) : off('Tag link'),
  ];
  return rows;
}
