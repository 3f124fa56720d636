// The command line every bare closed-loop client of bench/ takes (node-floor-client.js,
// checked-floor-client.js, undici-pool-client.js, undici-dispatch-client.js), as
// bench/lib/rulers.js `nodeClient` runs them: URL PATH CONNECTIONS SECONDS BODY_FILE, the request
// headers as JSON in CB_HEADERS; each prints one JSON line, {"requests": N, "non2xx": M, …},
// when its time is up.
import { readFileSync } from 'node:fs';
import { parseFlags } from './flags.js';

/**
 * The client's arguments, read and checked (bad ones exit 2 with one line, `--help` prints them),
 * with the body read and the headers parsed. `connectionsMeans` says what a connection is to it.
 */
export function closedClientArguments(scriptUrl, connectionsMeans) {
  const { url, path, connections, seconds, bodyFile } = parseFlags(scriptUrl, {
    positionals: [
      { name: 'url', value: 'URL', means: "the target's base URL" },
      { name: 'path', value: 'PATH', means: 'the path every PATCH goes to' },
      { name: 'connections', value: 'CONNECTIONS', kind: 'number', means: connectionsMeans },
      { name: 'seconds', value: 'SECONDS', kind: 'number', means: 'how long to send' },
      { name: 'bodyFile', value: 'BODY_FILE', means: 'the request body (a multipart upload)' },
    ],
    environment: { CB_HEADERS: 'the request headers, as JSON' },
  });
  return { url, path, connections, seconds, body: readFileSync(bodyFile), headers: JSON.parse(process.env.CB_HEADERS ?? '{}') };
}
