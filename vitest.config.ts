import { defineConfig } from 'vitest/config';

const shared = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 30_000,
} as const;

/*
 * Files whose runs are held to tight timing bounds: they run after the rest of the suite,
 * one at a time, so that what they measure is the run, not the other test files sharing the
 * two cores. Beside the others in CI, a 120 ms stall of the shared loop once cost a stage's
 * end 9 of its 300 streams (stages-run), and the TLS handshakes of an h2 ramp, competing
 * with a neighbour file, stalled the driver 130 ms and cut KEEP_ALIVE gaps short (http2).
 * The image test's containers and the README's walk-through hold the smoke profile's 300
 * participants to its checks and thresholds.
 */
const PRECISION = [
  'test/orchestration/stages-run.test.ts',
  'test/orchestration/http2.test.ts',
  'test/deploy/image.test.ts',
  'test/e2e/readme-walkthrough.test.ts',
];

export default defineConfig({
  test: {
    // Integration tests hold real sockets and timers; a 2-core machine runs two files at once.
    maxWorkers: 2,
    globalSetup: ['test/support/scratch-dir.ts'],
    reporters: ['default'],
    projects: [
      { test: { ...shared, name: 'suite', include: ['test/**/*.test.ts'], exclude: PRECISION, sequence: { groupOrder: 0 } } },
      { test: { ...shared, name: 'precision', include: PRECISION, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
