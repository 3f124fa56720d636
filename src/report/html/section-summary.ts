/** The top of the report: what ran, the verdict, and everything that failed or needs a look. */

import type { Report } from '../../contract/report.js';
import { describeAbort } from '../describe-abort.js';
import { escapeXml } from '../escape.js';
import { checksWithoutEvidence, checkTally, failedItems, noEvidenceText, runLength, startText, thresholdTally } from '../report-facts.js';

function fact(label: string, value: string): string {
  return `<div><dt>${escapeXml(label)}</dt><dd>${escapeXml(value)}</dd></div>`;
}

function targetText(report: Report): string {
  const faults = report.target.faults?.length ? `; faults: ${report.target.faults.join(', ')}` : '';
  const kind = report.target.embedded ? 'embedded reference target' : 'external target';
  return `${report.target.url} (${kind}${faults})`;
}

function verdictBox(report: Report): string {
  const checks = checkTally(report);
  const thresholds = thresholdTally(report);
  const facts = [
    fact('Target', targetText(report)),
    fact('Started', report.startedAt),
    fact('Duration', runLength(report)),
    fact('Checks', `${checks.passed} passed, ${checks.failed} failed, ${checks.skipped} skipped`),
    fact('Thresholds', thresholds.total === 0 ? 'none set' : `${thresholds.passed} of ${thresholds.total} passed`),
  ];
  if (report.shard) facts.push(fact('Shard', `${report.shard.index + 1} of ${report.shard.count}`));
  if (report.mergedFrom?.length) facts.push(fact('Merged from', `${report.mergedFrom.length} shard reports`));
  const start = startText(report);
  if (start) facts.push(fact('Start (--start-at)', start));
  if (report.transport?.insecure) facts.unshift(fact('TLS', 'NOT VERIFIED (--insecure): the target certificate was not checked'));
  if (report.aborted) facts.unshift(fact('Aborted', describeAbort(report.aborted)));
  const interrupted =
    (report.interrupted ? '<span class="badge fail">INTERRUPTED</span>' : '') +
    (report.aborted ? '<span class="badge fail">ABORTED</span>' : '') +
    (report.transport?.insecure ? '<span class="badge fail">INSECURE</span>' : '');
  // Anything but an explicit pass or incomplete reads as a failure: a reader must never see a false green.
  const verdict = report.verdict === 'pass' || report.verdict === 'incomplete' ? report.verdict : 'fail';
  if (verdict === 'incomplete') facts.unshift(fact('Why', noEvidenceText(report)));
  return `<div class="verdict ${verdict}" data-verdict="${verdict}"><span class="word">${verdict.toUpperCase()}</span>${interrupted}<dl class="facts">${facts.join('')}</dl></div>`;
}

function failuresBox(report: Report): string {
  const items = failedItems(report).map((item) => {
    const detail = item.detail ? ` — ${escapeXml(item.detail)}` : '';
    const name = item.kind === 'check' ? `<code>${escapeXml(item.name)}</code>` : `threshold <code>${escapeXml(item.name)}</code>`;
    return `<li><strong>${name}</strong>: observed ${escapeXml(item.observed)}${detail}</li>`;
  });
  if (items.length === 0) return '';
  return `<div class="failures" id="failed"><strong>Failed (${items.length})</strong><ul>${items.join('')}</ul></div>`;
}

/** An incomplete run: each core check it has no evidence for, and why. */
function noEvidenceBox(report: Report): string {
  if (report.verdict !== 'incomplete') return '';
  const items = checksWithoutEvidence(report).map((check) => `<li><strong><code>${escapeXml(check.id)}</code></strong>: ${escapeXml(check.detail)}</li>`);
  return `<div class="no-evidence" id="no-evidence"><strong>No evidence (${items.length})</strong><ul>${items.join('')}</ul></div>`;
}

function warningsBox(report: Report): string {
  const notes = [...report.warnings];
  if (report.interrupted) notes.unshift('The run was interrupted: figures cover only the part that ran.');
  if (report.generator.saturated) {
    notes.unshift('The load generator was saturated (event-loop delay over its bound): latencies may describe the driver, not the target.');
  }
  if (notes.length === 0) return '';
  return `<div class="warnings" id="warnings"><strong>Warnings (${notes.length})</strong><ul>${notes.map((note) => `<li>${escapeXml(note)}</li>`).join('')}</ul></div>`;
}

export function summarySection(report: Report): string {
  const title = `coachbench report: ${report.profile.name}`;
  const sub = `run ${report.runId} · coachbench ${report.tool.version} · report schema ${report.schemaVersion}`;
  return `<header><h1>${escapeXml(title)}</h1><p class="muted">${escapeXml(sub)}</p>${verdictBox(report)}${failuresBox(report)}${noEvidenceBox(report)}${warningsBox(report)}</header>`;
}
