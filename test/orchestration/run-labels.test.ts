/** `run --label key=value` and the CI's git sha: what report.json `labels` holds, and what is refused. */
import { describe, expect, it } from 'vitest';
import { resolveLabels } from '../../src/orchestration/run-labels.js';
import { ConfigError } from '../../src/util/errors.js';

describe('resolveLabels', () => {
  it('keeps every label and adds gitSha from the first CI variable set, unless a label gives it', () => {
    expect(resolveLabels(['release=v2.3.1', 'branch=main=ok'], { GITHUB_SHA: 'abc123', CI_COMMIT_SHA: 'def' })).toEqual({
      release: 'v2.3.1',
      branch: 'main=ok',
      gitSha: 'abc123',
    });
    expect(resolveLabels([], { GIT_SHA: ' 111 ', GITHUB_SHA: '222' })).toEqual({ gitSha: '111' });
    expect(resolveLabels(['gitSha=mine'], { GIT_SHA: 'env' })).toEqual({ gitSha: 'mine' });
    expect(resolveLabels([], {})).toEqual({});
  });

  it.each([
    ['release', '--label release: must be KEY=VALUE, e.g. release=v2.3.1'],
    ['=v1', '--label =v1: the key must start with a letter'],
    ['9lives=x', '--label 9lives=x: the key must start with a letter'],
    ['release=', '--label release=: the value must be 1..200 printable characters'],
    ['note=a\nb', 'the value must be 1..200 printable characters'],
  ])('refuses %j with one line', (entry, message) => {
    expect(() => resolveLabels([entry], {})).toThrow(ConfigError);
    expect(() => resolveLabels([entry], {})).toThrow(message);
  });

  it('refuses a key given twice', () => {
    expect(() => resolveLabels(['release=a', 'release=b'], {})).toThrow('--label release=b: label "release" given twice; give it once');
  });
});
