import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/*
 * `npm run test:unit`: the pure tests, with no build, no server and no child process, for a
 * quick loop while editing (CONTRIBUTING.md). A test file is pure when it imports none of
 * what starts a server, a process, a thread or a browser, nor dist/ (which needs the build);
 * the full suite (`npm test`, vitest.config.ts) runs every file, these included.
 */
const IMPURE =
  /from '(node:(http|https|http2|net|tls|child_process|worker_threads|cluster|dgram)|undici|playwright-core)'|startTarget|startTestTarget|startServer|start(Recording)?Forwarder|bin-helpers|run-helpers|hostile-run|shard-runs|chromium|dist\//;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Pure but slow, or held to wall-clock bounds that a busy editing machine would miss: left to the full suite. */
const SLOW_OR_TIMED = ['read-history', 'k8s-schemas', 'recorder-grid', 'timing-primitives', 'precompiled-validators'];

const pure = testFiles('test').filter((file) => !IMPURE.test(readFileSync(file, 'utf8')) && !SLOW_OR_TIMED.some((name) => file.includes(name)));

export default defineConfig({
  test: {
    environment: 'node',
    include: pure,
    testTimeout: 30_000,
    globalSetup: ['test/support/scratch-dir.ts'],
  },
});
