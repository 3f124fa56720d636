/** The scenario overview table and each scenario's full figures. */

import type { ChatStreamsSummary, PhotoUploadSummary, Report, RequestKindSummary, TagLinkSummary, ThroughputSummary } from '../../contract/report.js';
import { escapeXml as escapeText } from '../escape.js';
import { formatCount, formatCounts, formatMemory, formatMs, formatRatio, formatSeconds, formatValue } from '../format.js';
import { REQUEST_KIND_COLUMNS, requestKindRowsOf } from '../request-kind-rows.js';
import { SCENARIO_COLUMNS, scenarioRows } from '../scenario-rows.js';
import { STAGE_COLUMNS, stageRows } from '../stage-rows.js';
import { keyValues, section, table } from './parts.js';

function overview(report: Report): string {
  const stages = stageRows(report);
  const byStage = stages.length === 0 ? '' : `<h3>By stage</h3>${table(STAGE_COLUMNS, stages, 'stages')}`;
  return table(SCENARIO_COLUMNS, scenarioRows(report), 'scenarios') + byStage;
}

function chatDetails(chat: ChatStreamsSummary): string {
  const samples = chat.samples.length
    ? `<details><summary>First failure samples (${chat.samples.length})</summary><ul>${chat.samples.map((text) => `<li class="mono">${escapeText(text)}</li>`).join('')}</ul></details>`
    : '';
  return (
    '<h3>Chat streams</h3>' +
    keyValues([
      ['Participants', formatCount(chat.participants)],
      ['Session streams opened', formatCount(chat.opened)],
      ['Open failed', `${formatCount(chat.openFailed)}${chat.openFailed ? ` (${formatCounts(chat.openFailures)})` : ''}`],
      ['Dropped', `${formatCount(chat.dropped)}${chat.dropped ? ` (${formatCounts(chat.drops as Record<string, number>)})` : ''}`],
      ['Reopened', formatCount(chat.reopened)],
      ['Session switches', formatCount(chat.switches)],
      ['Stalled', formatCount(chat.stalled)],
      ['Peak concurrent', formatCount(chat.peakConcurrent)],
      ['Main streams opened / failed', `${formatCount(chat.mainStreams.opened)} / ${formatCount(chat.mainStreams.openFailed)}`],
      ['Main streams dropped', formatCount(chat.mainStreams.dropped)],
      ['KEEP_ALIVE expected', formatMs(chat.expectedKeepAliveMs)],
      ['KEEP_ALIVE tolerance', `± ${formatMs(chat.keepAliveToleranceMs)}`],
      ['KEEP_ALIVE violations', formatCount(chat.keepAliveViolations)],
      // Early counts since report schema 1.1.0; an older report has none to show.
      [
        'First KEEP_ALIVE late / early',
        `${formatCount(chat.firstKeepAliveLate)} / ${chat.firstKeepAliveEarly === undefined ? '—' : formatCount(chat.firstKeepAliveEarly)}`,
      ],
      ['Isolation violations', formatCount(chat.isolationViolations)],
      ['Schema violations', `${formatCount(chat.schemaViolations)}${chat.schemaViolations ? ` (${formatCounts(chat.schemaViolationKinds)})` : ''}`],
      ['Messages sent / failed', `${formatCount(chat.messagesSent)} / ${formatCount(chat.messagesFailed)}`],
      ['Message slots late / dropped', `${formatCount(chat.messagesLateSlots)} / ${formatCount(chat.messagesDroppedSlots)}`],
      ['Deliveries expected', formatCount(chat.deliveriesExpected)],
      ['Deliveries received', formatCount(chat.deliveriesReceived)],
      ['Deliveries missing', formatCount(chat.deliveriesMissing)],
      ['Duplicates', formatCount(chat.duplicates)],
      ['Membership ops / failed', `${formatCount(chat.membershipOps)} / ${formatCount(chat.membershipOpsFailed)}`],
    ]) +
    `<p><strong>Events on session streams:</strong> ${escapeText(formatCounts(chat.events))}</p>` +
    `<p><strong>Events on main streams:</strong> ${escapeText(formatCounts(chat.mainStreams.events))}</p>` +
    samples
  );
}

function throughputDetails(name: string, summary: ThroughputSummary, extra: readonly (readonly [string, string])[]): string {
  return (
    `<h3>${escapeText(name)}</h3>` +
    keyValues([
      ['Workload model', summary.model],
      ['Requested rate', formatValue(summary.requestedRatePerSec, 'perSec')],
      ['Requests', formatCount(summary.requests)],
      ['Throughput', formatValue(summary.throughputPerSec, 'perSec')],
      ['Errors', formatCount(summary.errors)],
      ['Error rate', formatRatio(summary.errorRate)],
      ['Late slots', formatCount(summary.lateSlots)],
      ['Dropped slots', formatCount(summary.droppedSlots)],
      ['Active time', formatSeconds(summary.activeSeconds)],
      ...extra,
    ]) +
    `<p><strong>Status codes:</strong> ${escapeText(formatCounts(summary.statusCodes))}</p>` +
    `<p><strong>Errors by kind:</strong> ${escapeText(formatCounts(summary.errorsByKind))}</p>`
  );
}

export function scenariosSection(report: Report): string {
  const { chatStreams, photoUpload, tagLink } = report.scenarios;
  const photo = (p: PhotoUploadSummary): string =>
    throughputDetails('Photo upload', p, [
      ['Name-override uploads', formatCount(p.overrideRequests)],
      ['Bytes sent', formatMemory(p.bytesSent)],
    ]);
  const tags = (t: TagLinkSummary): string =>
    throughputDetails('Tag link', t, [
      ['Tags created', formatCount(t.tagsCreated)],
      ['Existing names returned', formatCount(t.existingReturned)],
    ]);
  const details = [chatStreams ? chatDetails(chatStreams) : '', photoUpload ? photo(photoUpload) : '', tagLink ? tags(tagLink) : '', requestKinds(report)].join(
    '',
  );
  return section('scenarios', 'Scenarios', overview(report) + details);
}

/** The request kinds (docs/design.md §2.15), one row each; latency from the intended start in the open model. */
function requestKinds(report: Report): string {
  const kinds = report.scenarios.requests ?? {};
  if (Object.keys(kinds).length === 0) return '';
  return `<h3 id="request-kinds">Request kinds</h3>${requestKindsTable(kinds)}`;
}

/** The kinds' table, one row each; the live dashboard shows it too, over the run so far. */
export function requestKindsTable(kinds: Readonly<Record<string, RequestKindSummary>>): string {
  return table(REQUEST_KIND_COLUMNS, requestKindRowsOf(kinds));
}
