/**
 * junit.xml against Jenkins' JUnit schema (restated in junit-jenkins.xsd), validated by
 * Debian's xmllint (libxml2-utils; .ci/run installs it), and each testcase's time: the span
 * its evidence was gathered over, read from the report's time series.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { makeReport } from '../support/make-report.js';

const XMLLINT = '/usr/bin/xmllint';
const HAS_XMLLINT = existsSync(XMLLINT);
const SKIP_NOTE = HAS_XMLLINT ? '' : ` (SKIPPED: no ${XMLLINT}; install it with: apt-get install -y libxml2-utils)`;
const SCHEMA = join(dirname(fileURLToPath(import.meta.url)), 'junit-jenkins.xsd');

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-junit-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** xmllint's verdict on `xml`: ok, or its complaint. */
async function validate(name: string, xml: string): Promise<{ ok: boolean; output: string }> {
  const file = join(dir, `${name}.xml`);
  await writeFile(file, xml);
  return new Promise((done) => {
    execFile(XMLLINT, ['--noout', '--schema', SCHEMA, file], (error, stdout, stderr) => done({ ok: error === null, output: `${stdout}${stderr}` }));
  });
}

const REPORTS: Record<string, () => Report> = {
  pass: () => makeReport(),
  'failed check, skipped checks, thresholds': () =>
    makeReport({
      failChecks: ['stream.keepalive.cadence'],
      tagLink: false,
      thresholds: [
        { expression: 'chatStreams.eventLatencyMs.p99 < 5ms', status: 'fail', observed: 5.7 },
        { expression: 'chatStreams.eventLatencyMs.p99[5s] < 250', status: 'pass', observed: 4, window: { fromSec: 10, toSec: 15, evaluated: 26 } },
      ],
    }),
  incomplete: () => {
    const report = makeReport({ chatStreams: false });
    report.verdict = 'incomplete';
    report.coreChecks = ['stream.open'];
    report.checks[0] = { id: 'stream.open', status: 'skip', observed: null, detail: 'no stream opened' };
    return report;
  },
  hostile: () => makeReport({ hostile: '<img src=x onerror=alert(1)>"&\']]></x>', failChecks: ['photo.upload'] }),
};

describe('junit.xml and the Jenkins JUnit schema', () => {
  for (const [name, build] of Object.entries(REPORTS)) {
    it.skipIf(!HAS_XMLLINT)(`validates: ${name}${SKIP_NOTE}`, async () => {
      const result = await validate(name.replace(/\W+/g, '-'), renderJunit(build()));
      expect(result.output).toContain('validates');
      expect(result.ok).toBe(true);
    });
  }

  it.skipIf(!HAS_XMLLINT)(`rejects what Jenkins rejects: skipped on <testsuites>, a testcase without a name${SKIP_NOTE}`, async () => {
    const xml = renderJunit(makeReport({ tagLink: false }));
    const skippedOnSuites = await validate('skipped-on-suites', xml.replace('<testsuites ', '<testsuites skipped="4" '));
    expect(skippedOnSuites.ok).toBe(false);
    expect(skippedOnSuites.output).toContain("attribute 'skipped': The attribute 'skipped' is not allowed");
    const nameless = await validate('nameless', xml.replace('<testcase name="stream.open" ', '<testcase '));
    expect(nameless.ok).toBe(false);
  });
});

describe('testcase times', () => {
  const times = (xml: string): Map<string, string> =>
    new Map([...xml.matchAll(/<testcase name="([^"]+)" classname="[^"]+" time="([^"]+)"/g)].map((m) => [m[1] as string, m[2] as string]));

  it('are the span of the intervals that carried each check’s evidence; skips and probes gathered none', () => {
    const report = makeReport({ tagLink: false, timeseriesPoints: 30 });
    // Messages are posted only from second 5 to 20 of this run; streams live throughout.
    report.timeseries = report.timeseries.map((point) => ({ ...point, messagesSent: point.tSec > 5 && point.tSec <= 20 ? 13 : 0 }));
    const xml = times(renderJunit(report));
    expect(xml.get('stream.keepalive.cadence')).toBe('30.000');
    expect(xml.get('stream.message.delivery')).toBe('15.000');
    expect(xml.get('photo.upload')).toBe('30.000');
    expect(xml.get('tags.link')).toBe('0.000');
    expect(xml.get('auth.apikey.required')).toBe('0.000');
    expect(xml.get('generator.healthy')).toBe('30.000');
  });

  it('are a sliding-window threshold’s window, and a whole-run threshold’s span without the warm-up', () => {
    const report = makeReport({
      thresholds: [
        { expression: 'chatStreams.eventLatencyMs.p99 < 250', status: 'pass', observed: 4 },
        { expression: 'chatStreams.eventLatencyMs.p99[5s] < 250', status: 'fail', observed: 300, window: { fromSec: 12, toSec: 17, evaluated: 26 } },
      ],
    });
    report.timeseries = report.timeseries.map((point) => (point.tSec <= 10 ? { ...point, warmup: true as const } : point));
    const xml = times(renderJunit(report));
    expect(xml.get('chatStreams.eventLatencyMs.p99 &lt; 250')).toBe('20.000');
    expect(xml.get('chatStreams.eventLatencyMs.p99[5s] &lt; 250')).toBe('5.000');
  });
});
