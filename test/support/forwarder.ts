/**
 * A forwarder in front of a target, for tests that need to see or hold what a run sends: every
 * request goes on to `upstream` as it came (streams flow through as they arrive); `onRequest`
 * sees each one first, and `holdAnswerMs` may hold its answer before it is passed back.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ForwarderOptions {
  onRequest?: (req: IncomingMessage, res: ServerResponse) => void;
  /** How long to hold the answer to `req` (0: pass it at once). */
  holdAnswerMs?: (req: IncomingMessage) => number;
}

export interface Forwarder {
  url: string;
  /** Ends every connection and stops listening. */
  close: () => void;
}

export async function startForwarder(upstreamUrl: string, options: ForwarderOptions = {}): Promise<Forwarder> {
  const upstream = new URL(upstreamUrl);
  const server = createServer((req, res) => {
    options.onRequest?.(req, res);
    const holdMs = options.holdAnswerMs?.(req) ?? 0;
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const pass = (): void => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      };
      if (holdMs > 0) setTimeout(pass, holdMs);
      else pass();
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A request as it reached the forwarder. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

/** A forwarder that records every request it passes on, in arrival order. */
export async function startRecordingForwarder(upstreamUrl: string): Promise<Forwarder & { seen: SeenRequest[] }> {
  const seen: SeenRequest[] = [];
  const forwarder = await startForwarder(upstreamUrl, {
    onRequest: (req) => seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers }),
  });
  return { ...forwarder, seen };
}
