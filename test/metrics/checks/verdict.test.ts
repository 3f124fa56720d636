/** The verdict: fail > incomplete > pass, with core checks read from the profile's enabled scenarios. */
import { describe, expect, it } from 'vitest';
import { CHECK_IDS, type CheckId } from '../../../src/contract/check-ids.js';
import { resolveProfile } from '../../../src/contract/profile/resolve-profile.js';
import type { CheckResult, ThresholdResult } from '../../../src/contract/report.js';
import { coreChecks, judgeVerdict, missingEvidence } from '../../../src/metrics/checks/verdict.js';

const profile = (file: Record<string, unknown>) => resolveProfile({ name: 'verdict-test', ...file }, 'test');

const checksWith = (statuses: Partial<Record<CheckId, CheckResult['status']>>): CheckResult[] =>
  CHECK_IDS.map((id) => {
    const status = statuses[id] ?? 'pass';
    return { id, status, observed: status === 'skip' ? null : 1, detail: `${id} ${status}` };
  });

describe('coreChecks', () => {
  it('chat streams with messages imply every stream check but the generator, and the load check', () => {
    expect(coreChecks(profile({ chatStreams: { messageRatePerSec: 5 } }))).toEqual([
      'stream.open',
      'stream.keepalive.cadence',
      'stream.stall',
      'stream.session.isolation',
      'stream.event.schema',
      'stream.message.delivery',
      'load.achieved',
    ]);
  });

  it('without injected messages, nothing promises events other than KEEP_ALIVE', () => {
    expect(coreChecks(profile({ chatStreams: { messageRatePerSec: 0, churnRatePerSec: 3 } }))).toEqual([
      'stream.open',
      'stream.keepalive.cadence',
      'stream.stall',
      'load.achieved',
    ]);
  });

  it('photo and tags imply their own checks, the override and existing names only when the profile sends them', () => {
    const both = profile({ chatStreams: { enabled: false }, photoUpload: { enabled: true }, tagLink: { enabled: true } });
    expect(coreChecks(both)).toEqual(['photo.upload', 'photo.fieldname.override', 'tags.link', 'tags.existing.ignored', 'load.achieved']);
    const plain = profile({
      chatStreams: { enabled: false },
      photoUpload: { enabled: true, overrideShare: 0 },
      tagLink: { enabled: true, existingShare: 0 },
    });
    expect(coreChecks(plain)).toEqual(['photo.upload', 'tags.link', 'load.achieved']);
    expect(coreChecks(profile({ chatStreams: { enabled: false } }))).toEqual([]);
  });
});

describe('judgeVerdict', () => {
  const core: CheckId[] = ['stream.open', 'stream.keepalive.cadence', 'tags.link'];
  const failedThreshold: ThresholdResult = { expression: 'tagLink.errorRate < 0.01', status: 'fail', observed: 0.5 };

  it('passes only when every core check passed', () => {
    expect(judgeVerdict(checksWith({ 'errors.problem_json': 'skip' }), [], core)).toBe('pass');
  });

  it('is incomplete when a core check, any one, was skipped, and names it', () => {
    const checks = checksWith({ 'stream.keepalive.cadence': 'skip' });
    expect(judgeVerdict(checks, [], core)).toBe('incomplete');
    expect(missingEvidence(checks, core)).toEqual(['stream.keepalive.cadence']);
    const allSkipped = checksWith({ 'stream.open': 'skip', 'stream.keepalive.cadence': 'skip', 'tags.link': 'skip' });
    expect(judgeVerdict(allSkipped, [], core)).toBe('incomplete');
    expect(missingEvidence(allSkipped, core)).toEqual(core);
  });

  it('a failed check or threshold makes it fail, evidence or not', () => {
    expect(judgeVerdict(checksWith({ 'stream.keepalive.cadence': 'skip', 'photo.upload': 'fail' }), [], core)).toBe('fail');
    expect(judgeVerdict(checksWith({ 'tags.link': 'skip' }), [failedThreshold], core)).toBe('fail');
  });

  it('a core check missing from the checks counts as without evidence', () => {
    expect(
      judgeVerdict(
        checksWith({}).filter((check) => check.id !== 'tags.link'),
        [],
        core,
      ),
    ).toBe('incomplete');
  });
});
