/**
 * `coachbench serve`: the reference target as a process. Runs until SIGINT/SIGTERM, then
 * closes every stream and the server and returns 0 (bin/ turns that into the exit code).
 */

import { DEFAULT_SERVE_PORT, type ServeFlags, serveUntil } from '../reference-service/serve-main.js';
import { defineCommand } from './cli-command.js';

export const serveCommand = defineCommand<ServeFlags>({
  command: 'serve',
  describe: 'serve the reference target (the seed API under /api/v1) until interrupted',
  builder: (yargs) =>
    yargs
      .option('port', { type: 'string', describe: `port to listen on (0 = any free port)`, default: String(DEFAULT_SERVE_PORT) })
      .option('host', { type: 'string', describe: 'address to listen on', default: '127.0.0.1' })
      .option('keepalive', { type: 'string', describe: 'KEEP_ALIVE interval per stream (e.g. 15s, 500ms)', default: '15s' })
      .option('participants', { type: 'string', describe: 'participants to seed, each with chat sessions and a token', default: '100' })
      .option('sessions', { type: 'string', describe: 'chat sessions per participant (every 3rd is locked)', default: '3' })
      .option('seed', { type: 'string', describe: 'seed for ids, tokens and the API key', default: '1' })
      .option('workers', {
        type: 'string',
        describe: 'processes sharing the port (node:cluster), each with its own open-file limit: N or auto (= cores)',
        default: '1',
      })
      .option('fixtures-out', { type: 'string', describe: 'write the fixtures file (apiKey, coachToken, participants) here' })
      .option('fault', {
        type: 'string',
        array: true,
        describe: 'inject a fault, repeatable: keepalive-drift|stall|drop|error-rate|duplicate|leak|bad-json=PCT, latency=MS',
      }) as never,
  run: async (flags) => {
    const controller = new AbortController();
    const stop = (): void => controller.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      return await serveUntil(flags, controller.signal, (line) => process.stdout.write(`${line}\n`));
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
  },
});
