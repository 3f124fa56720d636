/**
 * A small OTLP/HTTP metrics receiver (node:http on 127.0.0.1): keeps every JSON body POSTed
 * to /v1/metrics with its content type, answers 200 `{}`, and 404 to anything else.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface KeyValue {
  key: string;
  value: { stringValue?: string };
}
export interface Exemplar {
  timeUnixNano?: string;
  asDouble?: number;
  traceId?: string;
  spanId?: string;
}
export interface DataPoint {
  attributes?: KeyValue[];
  asDouble?: number;
  asInt?: string | number;
  count?: string | number;
  sum?: number;
  exemplars?: Exemplar[];
}
export interface OtlpMetric {
  name: string;
  unit?: string;
  sum?: { dataPoints: DataPoint[]; isMonotonic?: boolean };
  gauge?: { dataPoints: DataPoint[] };
  histogram?: { dataPoints: DataPoint[] };
}
export interface ExportBody {
  resourceMetrics: { scopeMetrics: { scope: { name: string }; metrics: OtlpMetric[] }[] }[];
}

export interface OtlpReceiver {
  /** The receiver's origin; a bare origin gets the OTLP metrics path from `--otlp`. */
  url: string;
  exports: { contentType: string; body: ExportBody }[];
  close(): Promise<void>;
}

const readBody = async (request: IncomingMessage): Promise<string> => {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return text;
};

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: OtlpReceiver['exports'] = [];
  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      if (request.method === 'POST' && request.url === '/v1/metrics') {
        exports.push({ contentType: String(request.headers['content-type']), body: JSON.parse(text) as ExportBody });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else {
        response.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export const metricsOf = (body: ExportBody): OtlpMetric[] => body.resourceMetrics.flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
export const attribute = (point: DataPoint, key: string): string | undefined => point.attributes?.find((a) => a.key === key)?.value.stringValue;
