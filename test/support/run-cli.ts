/** Runs the CLI in-process (src/cli/main.ts, no build needed) and captures what it writes. */
import { vi } from 'vitest';
import type { CliCommand } from '../../src/cli/cli-command.js';
import { main } from '../../src/cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(argv: string[], commands?: readonly CliCommand[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = commands ? await main(argv, commands) : await main(argv);
    return { code, stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}
