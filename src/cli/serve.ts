/** `coachbench serve`: the reference target as a process, until SIGINT or SIGTERM. */

import { runServe, type ServeFlags } from '../orchestration/commands/serve.js';
import { DEFAULT_SERVE_PORT } from '../reference-service/serve-defaults.js';
import { MAX_WORKERS } from '../reference-service/target-config.js';
import { defineCommand } from './cli-command.js';
import { integerOption, repeatableOption, textOption } from './flag-values.js';

export const serveCommand = defineCommand<ServeFlags>({
  command: 'serve',
  describe: 'serve the reference target (the API under /api/v1) until interrupted',
  builder: (yargs) =>
    yargs
      .option('port', integerOption('--port', { describe: 'port to listen on, 0..65535 (0 = any free port)', default: DEFAULT_SERVE_PORT }))
      .option('host', textOption('--host', { describe: 'address to listen on', default: '127.0.0.1' }))
      .option('keepalive', textOption('--keepalive', { describe: 'KEEP_ALIVE interval per stream (e.g. 15s, 500ms; at least 10ms)', default: '15s' }))
      .option(
        'participants',
        integerOption('--participants', { describe: 'participants to seed (1..1000000), each with chat sessions and a token', default: 100 }),
      )
      .option('sessions', integerOption('--sessions', { describe: 'chat sessions per participant, 1..1000 (every 3rd is locked)', default: 3 }))
      .option('seed', integerOption('--seed', { describe: 'seed for ids, tokens and the API key (0..4294967295)', default: 1 }))
      .option(
        'workers',
        textOption('--workers', {
          describe: `processes sharing the port (node:cluster), each with its own open-file limit: 1..${MAX_WORKERS} or auto (= cores)`,
          default: '1',
        }),
      )
      .option('fixtures-out', textOption('--fixtures-out', { describe: 'write the fixtures file (apiKey, coachToken, participants) here' }))
      .option(
        'fault',
        repeatableOption({
          describe:
            'inject a fault, repeatable: keepalive-drift|stall|drop|error-rate|duplicate|leak|bad-json|resume-gap=PCT, latency=MS; error-rate, latency and bad-json may end in "on METHOD /path" (one route; scoped, bad-json cuts its JSON bodies short)',
        }),
      )
      .option(
        'sse-retry',
        textOption('--sse-retry', { describe: 'send retry: <ms> on every stream open (the reconnection time a client should honour), e.g. 2s' }),
      )
      .option('accel-buffering-header', {
        type: 'boolean',
        default: true,
        describe: 'send X-Accel-Buffering: no on streams; --no-accel-buffering-header lets a proxy (nginx) buffer them, as for a target unaware of proxies',
      })
      .option('http2', {
        type: 'boolean',
        describe: 'serve HTTP/2: h2 beside HTTP/1.1 over TLS (ALPN), h2c (prior knowledge only) in plain text',
      })
      .option(
        'token-ttl',
        textOption('--token-ttl', {
          describe:
            'bearer tokens expire this long after they are issued (401 invalid_token); POST /_coachbench/tokens with the API key issues new ones, e.g. 30s',
        }),
      )
      .option('tls', textOption('--tls', { describe: 'serve HTTPS with a throwaway pair: --tls self-signed (its certificate is written, see --tls-cert-out)' }))
      .option('tls-cert', textOption('--tls-cert', { describe: 'serve HTTPS with this certificate (PEM); needs --tls-key' }))
      .option('tls-key', textOption('--tls-key', { describe: 'private key (PEM) of --tls-cert' }))
      .option('tls-client-ca', textOption('--tls-client-ca', { describe: 'require client certificates signed by this CA (mutual TLS)' }))
      .option(
        'log-traces',
        textOption('--log-traces', {
          describe: 'append a JSON line per request that carried a W3C traceparent to FILE (trace id, method, path, status, handling time)',
        }),
      )
      .option('tls-cert-out', textOption('--tls-cert-out', { describe: 'write the certificate clients must trust here (default: a file in the temp folder)' }))
      .example('$0 serve', `the reference target on http://127.0.0.1:${DEFAULT_SERVE_PORT}`)
      .example('$0 serve --participants 500 --fixtures-out /tmp/f.json', 'a target for run --target, its fixtures file written')
      .example('$0 serve --tls self-signed --tls-cert-out /tmp/ca.pem', 'HTTPS on loopback; then run -t https://127.0.0.1:7080 --ca /tmp/ca.pem')
      .example('$0 serve --port 0 --fault drop=5 --fault latency=50ms', 'a misbehaving target on any free port') as never,
  run: runServe,
});
