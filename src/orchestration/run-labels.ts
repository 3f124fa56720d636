/**
 * `run --label key=value` and the git sha of the CI environment: what a run was of, recorded
 * in report.json (`labels`) so that `coachbench trend` can say which release or commit a
 * change point started with.
 */
import { ConfigError } from '../util/errors.js';
import { printable } from '../util/printable.js';

/** The label that carries the commit, filled from the environment when no `--label` sets it. */
export const GIT_SHA_LABEL = 'gitSha';
/** Environment variables that hold the commit under test, first set wins: plain, GitHub Actions, GitLab CI. */
export const GIT_SHA_VARIABLES = ['GIT_SHA', 'GITHUB_SHA', 'CI_COMMIT_SHA'] as const;

const KEY = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const MAX_VALUE_CHARS = 200;
// Control characters would break the one-line outputs (trend's lines, the Markdown table).
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Parses the `--label` values and adds the git sha from `env`; throws one ConfigError line per bad label. */
export function resolveLabels(entries: readonly string[], env: NodeJS.ProcessEnv): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const entry of entries) {
    const at = entry.indexOf('=');
    const key = at < 0 ? entry : entry.slice(0, at);
    const value = at < 0 ? '' : entry.slice(at + 1);
    const where = `--label ${printable(entry)}`;
    if (at < 0) throw new ConfigError(`${where}: must be KEY=VALUE, e.g. release=v2.3.1`);
    if (!KEY.test(key)) throw new ConfigError(`${where}: the key must start with a letter and hold only letters, digits, _ . - (at most 64)`);
    if (value === '' || value.length > MAX_VALUE_CHARS || CONTROL.test(value)) {
      throw new ConfigError(`${where}: the value must be 1..${MAX_VALUE_CHARS} printable characters`);
    }
    if (Object.hasOwn(labels, key)) throw new ConfigError(`${where}: label "${key}" given twice; give it once`);
    labels[key] = value;
  }
  if (!Object.hasOwn(labels, GIT_SHA_LABEL)) {
    const sha = GIT_SHA_VARIABLES.map((name) => env[name]?.trim()).find((value) => value && value.length <= MAX_VALUE_CHARS && !CONTROL.test(value));
    if (sha) labels[GIT_SHA_LABEL] = sha;
  }
  return labels;
}
