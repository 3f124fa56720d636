/**
 * A reference target whose tokens expire, and token commands for it: the pieces of the
 * --token-command tests. The commands are small node scripts run through the shell, as a
 * user's `curl ... | jq ...` would be; the API key reaches them through the environment.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunningTarget, TargetOptions } from '../../src/reference-service/target-types.js';
import { type FixturesFolder, startTargetWithFixtures, type TargetWithFixtures } from './target-helpers.js';

export const NODE = JSON.stringify(process.execPath);

/** A target (in this process) whose tokens live `ttlMs`, and its fixtures file; `options` may add TLS or HTTP/2. */
export function expiringTarget(folder: FixturesFolder, ttlMs: number, options: TargetOptions = {}): Promise<TargetWithFixtures> {
  return startTargetWithFixtures(folder, { tokenTtlMs: ttlMs, ...options });
}

/**
 * A token command asking the target for fresh tokens; every answer it got is appended to
 * `issuedLog` (one JSON per line), so a test can look for each token in what the run wrote.
 * After `failAfter` successful runs it fails, printing the last token it had on stderr.
 */
export async function tokenCommand(dir: string, target: RunningTarget, options: { failAfter?: number } = {}): Promise<{ command: string; issuedLog: string }> {
  const issuedLog = join(dir, 'issued.log');
  const script = join(dir, 'token-command.mjs');
  await writeFile(
    script,
    `import { appendFileSync, existsSync, readFileSync } from 'node:fs';
const log = ${JSON.stringify(issuedLog)};
const earlier = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\\n').filter(Boolean) : [];
if (earlier.length >= ${options.failAfter ?? Number.MAX_SAFE_INTEGER}) {
  const last = JSON.parse(earlier.at(-1));
  console.error('identity provider unreachable; still holding ' + Object.values(last.participants)[0] + ' and Bearer ' + last.coachToken);
  process.exit(1);
}
const answer = await fetch(${JSON.stringify(`${target.url}/_coachbench/tokens`)}, { method: 'POST', headers: { 'x-api-key': process.env.TOKEN_API_KEY } });
if (!answer.ok) { console.error('token endpoint answered ' + answer.status); process.exit(1); }
const body = await answer.json();
appendFileSync(log, JSON.stringify(body) + '\\n');
process.stdout.write(JSON.stringify({ coachToken: body.coachToken, participants: body.participants }));
`,
  );
  return { command: `${NODE} ${JSON.stringify(script)}`, issuedLog };
}

/** Every token the command handed out (participants' and the coach's). */
export async function issuedTokens(issuedLog: string): Promise<string[]> {
  const text = await readFile(issuedLog, 'utf8').catch(() => '');
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      const body = JSON.parse(line) as { coachToken: string; participants: Record<string, string> };
      return [body.coachToken, ...Object.values(body.participants)];
    });
}
