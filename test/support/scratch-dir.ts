/**
 * vitest globalSetup: every temporary file the suite makes (mkdtemp under os.tmpdir(), report
 * folders, generated certificates, spawned CLIs' scratch) lands in one directory of this run,
 * removed when the run ends, so a CI machine does not collect hundreds of folders per run.
 * Workers and the processes they spawn inherit TMPDIR, which os.tmpdir() reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const scratch = mkdtempSync(join(tmpdir(), 'coachbench-tests-'));
  process.env.TMPDIR = scratch;
  return () => rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
}
