/**
 * The work of `coachbench serve` (src/cli/serve.ts declares its flags): the reference target
 * as a process. Runs until SIGINT/SIGTERM, then closes every stream and the server and
 * returns 0 (bin/ turns that into the exit code).
 */
import { type ServeFlags, serveUntil } from '../../reference-service/serve-main.js';
import { terminalText } from '../../util/printable.js';

export type { ServeFlags } from '../../reference-service/serve-main.js';

export async function runServe(flags: ServeFlags): Promise<number> {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    return await serveUntil(flags, controller.signal, (line) => process.stdout.write(terminalText(`${line}\n`)));
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
