/** `coachbench run`: the main job. With no flags, the smoke profile against the embedded target. */

import { type RunFlags, runRun } from '../orchestration/commands/run.js';
import { MAX_RUN_WORKERS } from '../orchestration/run-config.js';
import { MAX_DURATION_TEXT } from '../util/duration.js';
import { ConfigError } from '../util/errors.js';
import { defineCommand } from './cli-command.js';
import { repeatableOption, textOption } from './flag-values.js';

/**
 * What `coachbench run` alone does, as both help pages' examples say it: the smoke profile's
 * duration (profiles/smoke.json) and the whole command's, start and report included (README).
 */
export const SMOKE_RUN_EXAMPLE = 'the smoke profile against the embedded reference target (30 s of load, about 35 s in all)';

export const runCommand = defineCommand<RunFlags>({
  command: 'run',
  describe: 'run a profile against a target (default: the smoke profile against the embedded reference target)',
  builder: (yargs) =>
    yargs
      .option('profile', textOption('--profile', { alias: 'p', describe: 'built-in profile name or profile file (JSON, comments allowed)', default: 'smoke' }))
      .option('target', textOption('--target', { alias: 't', describe: 'target base URL (default: COACHBENCH_TARGET, else the embedded target)' }))
      .option('fixtures', textOption('--fixtures', { alias: 'f', describe: 'fixtures file: participants, sessions, tokens (required with --target)' }))
      .option(
        'duration',
        textOption('--duration', {
          alias: 'd',
          describe: `override the profile duration: 30s, 10m, 1h30m (units ms, s, m, h, d; a unit is required; at most ${MAX_DURATION_TEXT})`,
        }),
      )
      .option(
        'seed',
        textOption('--seed', { describe: "seed of the driver's random draws (Poisson arrivals): 0..4294967295 (default: the profile's seed, else 1)" }),
      )
      .option('out', textOption('--out', { alias: 'o', describe: 'report folder (default: reports/<profile>-<UTC stamp>)' }))
      .option('workers', textOption('--workers', { alias: 'w', describe: `driver processes on this machine: 1..${MAX_RUN_WORKERS} or auto (cores - 1)` }))
      .option('shard', textOption('--shard', { describe: 'run shard I of N (0-based, e.g. 0/4); merge the reports with coachbench merge' }))
      .option(
        'expect-keepalive',
        textOption('--expect-keepalive', {
          describe: "KEEP_ALIVE interval to hold streams to, at least 10ms (default: the profile's expectKeepAlive, else the embedded target's, else 15s)",
        }),
      )
      .option('threshold', repeatableOption({ describe: 'threshold expression, repeatable (e.g. "chatStreams.eventLatencyMs.p99 < 250")' }))
      .option(
        'start-at',
        textOption('--start-at', {
          describe:
            'get ready, then start the load at this instant: RFC 3339 (2026-11-24T14:00:00Z) or +DURATION; shards given one time start together (default: COACHBENCH_START_AT)',
        }),
      )
      .option('ca', repeatableOption({ describe: 'trust this CA certificate (PEM) besides the system roots, repeatable' }))
      .option('cert', textOption('--cert', { describe: 'client certificate (PEM) for mutual TLS; needs --key' }))
      .option('key', textOption('--key', { describe: 'private key (PEM) of --cert' }))
      .option('insecure', { type: 'boolean', describe: 'do not verify the target certificate (said loudly, recorded in the report)' })
      .option('servername', textOption('--servername', { describe: 'TLS server name (SNI) and the name the certificate must carry, when not the URL host' }))
      .option(
        'header',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${ENV_VAR} syntax users write, shown literally
        repeatableOption({ alias: 'H', describe: "extra header for every request and stream, repeatable: 'X-Tenant: acme', values may use ${ENV_VAR}" }),
      )
      .option('proxy', {
        type: 'string',
        describe: 'send everything through this HTTP(S) proxy (default: HTTP_PROXY/HTTPS_PROXY/NO_PROXY); --no-proxy ignores the environment',
        coerce: (value: string | boolean | Array<string | boolean>) => {
          if (Array.isArray(value)) throw new ConfigError(`--proxy: given ${value.length} times; give it once`);
          if (value === '') throw new ConfigError('--proxy: needs a URL (or use --no-proxy)');
          return value;
        },
      })
      .option(
        'http',
        textOption('--http', {
          describe: 'HTTP version: 1.1 (default), 2 (h2 over TLS, h2c in plain text; one connection per participant), auto (h2 when the TLS target offers it)',
        }),
      )
      .option('trace', { type: 'boolean', describe: 'send a W3C traceparent with every request, stream open and message (default on); --no-trace sends none' })
      .option(
        'trace-url',
        textOption('--trace-url', { describe: 'link the slowest trace ids in report.html to this URL template, e.g. https://tempo.example/trace/{traceId}' }),
      )
      .option(
        'trace-sample',
        textOption('--trace-sample', { describe: 'share of traceparents with the sampled flag on, 0..1 (default 1); the others carry flag 00' }),
      )
      .option(
        'token-command',
        textOption('--token-command', {
          describe:
            'shell command printing fresh bearer tokens (one token, or JSON); run at start and when a token is refused with 401 (env COACHBENCH_TOKEN_COMMAND)',
        }),
      )
      .option('label', repeatableOption({ describe: 'KEY=VALUE kept in report.json for coachbench trend, repeatable (release=v2.3.1)' }))
      .option('quiet', { alias: 'q', type: 'boolean', describe: 'no progress or informative lines (warnings, the verdict and the report path still print)' })
      .option(
        'progress-every',
        textOption('--progress-every', {
          describe: 'a plain progress line at this cadence, e.g. 60s for kubectl logs (default: every 5s when stderr is not a TTY)',
        }),
      )
      .option(
        'metrics-port',
        textOption('--metrics-port', { describe: 'serve Prometheus metrics at http://HOST:PORT/metrics during the run (0 = any free port)' }),
      )
      .option(
        'metrics-host',
        textOption('--metrics-host', { describe: 'address --metrics-port and --dashboard listen on (default 127.0.0.1; 0.0.0.0 in a pod)' }),
      )
      .option('otlp', textOption('--otlp', { describe: 'push metrics to an OpenTelemetry collector over OTLP/HTTP JSON (e.g. http://127.0.0.1:4318)' }))
      .option('dashboard', {
        type: 'string',
        describe: 'serve a live dashboard at http://HOST:PORT/ during the run (PORT default 5665; 0 = any free port)',
        coerce: (value: string | string[]) => {
          if (Array.isArray(value)) throw new ConfigError(`--dashboard: given ${value.length} times; give it once`);
          return value;
        },
      })
      .example('$0 run', SMOKE_RUN_EXAMPLE)
      .example('$0 run -p nightly-soak -d 2h30m -t "$URL" -f fixtures.json', 'a soak of a real service, 2 h 30 min')
      .example('$0 run -p nightly-soak --metrics-port 9464 --dashboard', 'a soak watched in Prometheus and in the browser (http://127.0.0.1:5665/)')
      .example('$0 run -p release -w auto --threshold "tagLink.errorRate < 0.01"', 'a release gate on every core, one more threshold')
      .example('$0 run -p release --shard 0/4 --start-at 2026-11-24T14:00:00Z -t "$URL" -f f.json', 'shard 0 of 4, starting with its peers')
      .example(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${ENV_VAR} syntax users write, shown literally
        '$0 run -t https://staging.example.com -f f.json --ca corp-ca.pem -H "X-Tenant: ${TENANT}"',
        'a staging target behind a private CA, with a tenant header',
      )
      .example('$0 run -p nightly-soak --label release=v2.3.1', 'a nightly run labelled for coachbench trend (gitSha from GIT_SHA/GITHUB_SHA)') as never,
  run: runRun,
});
