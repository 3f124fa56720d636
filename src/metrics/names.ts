/**
 * Metric names shared by drivers (which count) and summary builders (which read), derived
 * from the registry (src/metrics/registry/): `CHAT.opened === 'chat.opened'`. Histograms hold
 * integer microseconds and end in `Us`. To add a metric, declare it in the registry.
 */

import { remembered } from '../util/remembered.js';
import { CHAT_EVENTS, CHAT_OPENING, MAIN_STREAMS } from './registry/chat-metrics.js';
import { AUTH_METRICS, GENERATOR_METRICS } from './registry/generator-metrics.js';
import { group, namesOf, under } from './registry/metric-decl.js';
import { type ThroughputKey, TRANSPORT, throughputShared } from './registry/throughput-metrics.js';

export { type RequestKindKey, requestKindKey, type ThroughputKey, type ThroughputScenario } from './registry/throughput-metrics.js';

function throughputNamesOf(scenario: ThroughputKey) {
  const metrics = group(`${scenario}.`, throughputShared(scenario));
  return {
    ...namesOf(metrics),
    /** `${scenario}.status.<code>`, built once per code: asked for on every answer. */
    status: remembered(under(metrics, 'status.')),
    /** `${scenario}.error.<failure code>` (docs/failure-codes.md). */
    errorKind: remembered(under(metrics, 'error.')),
  };
}

const THROUGHPUT_NAMES = { photoUpload: throughputNamesOf('photoUpload'), tagLink: throughputNamesOf('tagLink') } as const;

const KIND_NAMES = new Map<string, ReturnType<typeof throughputNamesOf>>();

/** Names of one throughput scenario's metrics, or of one request kind's (`requests.<name>`, made once per kind). */
export function throughputNames(scenario: ThroughputKey) {
  if (scenario === 'photoUpload' || scenario === 'tagLink') return THROUGHPUT_NAMES[scenario];
  let names = KIND_NAMES.get(scenario);
  if (names === undefined) {
    names = throughputNamesOf(scenario);
    KIND_NAMES.set(scenario, names);
  }
  return names;
}

const connection = under(TRANSPORT, 'connections.');
/** Connections by the driver that opened them and the protocol they speak (report.json transport.protocols). */
export const CONNECTIONS_PREFIX = connection('');
export const connectionsName = (driver: 'requests' | 'streams' | 'closedModel', protocol: string): string => connection(`${driver}.${protocol}`);

/** Bearer-token renewal (engine/auth/credentials.ts, docs/design.md §2.13). */
export const AUTH = namesOf(AUTH_METRICS);

export const CHAT = {
  ...namesOf(CHAT_OPENING, CHAT_EVENTS),
  /** Chat and main stream opens that failed, by failure code. */
  openFailure: under(CHAT_OPENING, 'openFailed.'),
  /** Chat and main streams the target cut, by failure code. */
  drop: under(CHAT_OPENING, 'dropped.'),
  event: under(CHAT_EVENTS, 'events.'),
  schemaViolation: under(CHAT_EVENTS, 'schema.'),
  /** Samples key for human-readable stream failures. */
  samples: 'chat',
  /** Samples key for the words of the gateway pages that answered stream opens (`text/html, Server: nginx/1.22.1`). */
  gatewayPageSamples: 'chat.gatewayPage',
} as const;

export const MAIN = { ...namesOf(MAIN_STREAMS), event: under(MAIN_STREAMS, 'events.') } as const;

export const GENERATOR = namesOf(GENERATOR_METRICS);
