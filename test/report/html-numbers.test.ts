/**
 * Every number report.html shows in its headline tables, KEEP_ALIVE figures and chart
 * captions is report.json's: a real short run against the embedded target, its report.html
 * parsed back into numbers and compared with its report.json. In particular one KEEP_ALIVE
 * frame count everywhere, and the gap count shown as what it is (frames less each stream's
 * first KEEP_ALIVE), which a smoke report once showed as 16,683 in a check and 15,183 in a chart.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatStreamsSummary, Report } from '../../src/contract/report.js';
import { quickProfile } from '../support/profiles.js';
import { runProfile } from '../support/run-helpers.js';
import { readRunReport } from '../support/run-report.js';

let report: Report;
let html = '';
let chat: ChatStreamsSummary;

beforeAll(async () => {
  const run = await runProfile(
    quickProfile({
      duration: '4s',
      photoUpload: { enabled: true, ratePerSec: 10, imageSizes: ['16KiB'] },
      tagLink: { enabled: true, ratePerSec: 10 },
    }),
  );
  report = await readRunReport(run.outDir);
  html = await readFile(join(run.outDir, 'report.html'), 'utf8');
  if (!report.scenarios.chatStreams) throw new Error('the run has no chat streams');
  chat = report.scenarios.chatStreams;
}, 60_000);

/** "1,234" → 1234; every number in `text`, in order. */
const numbersIn = (text: string): number[] => [...text.matchAll(/\d[\d,]*(\.\d+)?/g)].map((m) => Number(m[0].replace(/,/g, '')));
/** Visible text; a tag becomes a space, so that neighbouring cells never run into one number. */
const textOf = (fragment: string): string =>
  fragment
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
const between = (from: string, to: string): string => {
  const start = html.indexOf(from);
  expect(start, from).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf(to, start + from.length));
};
/** The `<dl class="kv">` pairs of one HTML fragment, label → shown value. */
const keyValues = (fragment: string): Map<string, string> =>
  new Map([...fragment.matchAll(/<dt>(.*?)<\/dt><dd>(.*?)<\/dd>/g)].map((m) => [textOf(m[1] as string), textOf(m[2] as string)]));
const keepAliveFrames = (): number => (chat.events.KEEP_ALIVE ?? 0) + (chat.mainStreams.events.KEEP_ALIVE ?? 0);

describe('report.html shows report.json’s numbers', () => {
  it('one KEEP_ALIVE frame count everywhere, and gaps + first KEEP_ALIVEs = frames', () => {
    const frames = keepAliveFrames();
    const gaps = chat.keepAliveGapMs.count;
    const firsts = chat.firstKeepAliveMs.count;
    expect(frames).toBeGreaterThan(0);
    expect(gaps + firsts).toBe(frames);
    // The time series and the counter count the same frames.
    expect(report.timeseries.reduce((sum, point) => sum + point.keepAlives, 0)).toBe(frames);
    expect(report.metrics.counters['chat.keepAlives']).toBe(frames);
    const text = textOf(html);
    const shownFrames = [...text.matchAll(/([\d,]+) KEEP_ALIVE frames/g)].map((m) => Number((m[1] as string).replace(/,/g, '')));
    // The KEEP_ALIVE section's intro and the stream.event.schema check.
    expect(shownFrames.length).toBeGreaterThanOrEqual(2);
    for (const shown of shownFrames) expect(shown).toBe(frames);
    // A failed cadence check names its violations instead (also "N KEEP_ALIVE gaps outside …", not a gap count).
    if (report.checks.find((check) => check.id === 'stream.keepalive.cadence')?.status === 'pass') expect(text).toContain(`(${gaps + firsts} frames)`);
    const shownGaps = [...text.matchAll(/([\d,]+) (?:KEEP_ALIVE )?gaps\b(?! outside)/g), ...text.matchAll(/gaps(?: \(|: )n=([\d,]+)/g)].map((m) =>
      Number((m[1] as string).replace(/,/g, '')),
    );
    expect(shownGaps.length).toBeGreaterThanOrEqual(4);
    for (const shown of shownGaps) expect(shown).toBe(gaps);
    const shownFirsts = [...text.matchAll(/([\d,]+) first KEEP_ALIVEs/g), ...text.matchAll(/first KEEP_ALIVE(?: \(|: )n=([\d,]+)/g)].map((m) =>
      Number((m[1] as string).replace(/,/g, '')),
    );
    expect(shownFirsts.length).toBeGreaterThanOrEqual(3);
    for (const shown of shownFirsts) expect(shown).toBe(firsts);
    // The per-stream event lines.
    expect(numbersIn(/Events on session streams:.*?KEEP_ALIVE ([\d,]+)/.exec(text)?.[1] ?? '')).toEqual([chat.events.KEEP_ALIVE]);
    expect(numbersIn(/Events on main streams:.*?KEEP_ALIVE ([\d,]+)/.exec(text)?.[1] ?? '')).toEqual([chat.mainStreams.events.KEEP_ALIVE]);
  });

  it('the verdict box: checks and thresholds tallied as report.json has them', () => {
    const facts = textOf(between('<dl class="facts">', '</dl>'));
    const count = (status: string): number => report.checks.filter((check) => check.status === status).length;
    expect(facts).toContain(`${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped`);
  });

  it('the chat streams table: every figure', () => {
    const shown = keyValues(between('<h3>Chat streams</h3>', '<h3>'));
    const expected: [string, number[]][] = [
      ['Participants', [chat.participants]],
      ['Session streams opened', [chat.opened]],
      ['Open failed', [chat.openFailed]],
      ['Dropped', [chat.dropped]],
      ['Reopened', [chat.reopened]],
      ['Session switches', [chat.switches]],
      ['Stalled', [chat.stalled]],
      ['Peak concurrent', [chat.peakConcurrent]],
      ['Main streams opened / failed', [chat.mainStreams.opened, chat.mainStreams.openFailed]],
      ['Main streams dropped', [chat.mainStreams.dropped]],
      ['KEEP_ALIVE expected', [chat.expectedKeepAliveMs]],
      ['KEEP_ALIVE tolerance', [chat.keepAliveToleranceMs]],
      ['KEEP_ALIVE violations', [chat.keepAliveViolations]],
      ['First KEEP_ALIVE late / early', [chat.firstKeepAliveLate, chat.firstKeepAliveEarly ?? 0]],
      ['Isolation violations', [chat.isolationViolations]],
      ['Schema violations', [chat.schemaViolations]],
      ['Messages sent / failed', [chat.messagesSent, chat.messagesFailed]],
      ['Message slots late / dropped', [chat.messagesLateSlots, chat.messagesDroppedSlots]],
      ['Deliveries expected', [chat.deliveriesExpected]],
      ['Deliveries received', [chat.deliveriesReceived]],
      ['Deliveries missing', [chat.deliveriesMissing]],
      ['Duplicates', [chat.duplicates]],
      ['Membership ops / failed', [chat.membershipOps, chat.membershipOpsFailed]],
    ];
    expect([...shown.keys()]).toEqual(expected.map(([label]) => label));
    for (const [label, values] of expected) expect(numbersIn(shown.get(label) ?? ''), label).toEqual(values);
  });

  it('the photo upload and tag link tables: requests, errors, status codes', () => {
    for (const [heading, summary] of [
      ['Photo upload', report.scenarios.photoUpload],
      ['Tag link', report.scenarios.tagLink],
    ] as const) {
      expect(summary, heading).not.toBeNull();
      const fragment = between(`<h3>${heading}</h3>`, '</p>');
      const shown = keyValues(fragment);
      expect(numbersIn(shown.get('Requests') ?? ''), heading).toEqual([summary?.requests]);
      expect(numbersIn(shown.get('Errors') ?? ''), heading).toEqual([summary?.errors]);
      const codes = textOf(/<strong>Status codes:<\/strong>(.*?)<\/p>/.exec(html.slice(html.indexOf(`<h3>${heading}</h3>`)))?.[1] ?? '');
      const shownCodes = Object.fromEntries([...codes.matchAll(/(\w+) ([\d,]+)/g)].map((m) => [m[1], Number((m[2] as string).replace(/,/g, ''))]));
      expect(shownCodes, heading).toEqual(summary?.statusCodes);
    }
  });

  it('the chart captions: sample counts of every percentile note, and the number of intervals', () => {
    const notes = [...html.matchAll(/<p class="pcts">(.*?)<\/p>/g)].map((m) => textOf(m[1] as string));
    const countOf = (name: string): number => numbersIn(/n=([\d,]+)/.exec(notes.find((note) => note.startsWith(`${name}: `)) ?? '')?.[1] ?? '')[0] ?? -1;
    expect(countOf('gaps')).toBe(chat.keepAliveGapMs.count);
    expect(countOf('first KEEP_ALIVE')).toBe(chat.firstKeepAliveMs.count);
    expect(countOf('event-loop delay')).toBe(report.generator.eventLoopDelayMs.count);
    const intro = textOf(between('<section id="timeseries">', '</p>'));
    expect(numbersIn(intro)[0]).toBe(report.timeseries.length);
  });
});
