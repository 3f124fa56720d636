import { defineConfig } from 'vitest/config';

const shared = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 30_000,
} as const;

/*
 * Runs held to a plan within 2 % at given instants (stage ends): run after the rest of the
 * suite, alone, so that what they measure is the run, not the other test files sharing the
 * two cores. Beside the others in CI, a 120 ms stall of the shared loop once cost a stage's
 * end 9 of its 300 streams.
 */
const PRECISION = ['test/orchestration/stages-run.test.ts'];

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
