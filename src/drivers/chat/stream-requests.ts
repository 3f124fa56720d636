/**
 * What a stream open sends (docs/design.md §4.1, §2.12, §2.14): the main or chat-session
 * stream's path under the API base, the participant's headers and current Authorization, the
 * open timeout and frame bound, a source address spread over the host's loopback addresses,
 * the participant's own HTTP/2 connection when it holds one, and Last-Event-ID to resume from.
 */
import type { WireProtocol } from '../../engine/http-agent.js';
import type { ScenarioContext } from '../../engine/scenario.js';
import type { SseStream, StreamRequest } from '../../engine/sse-reader.js';
import { connectionsName } from '../../metrics/names.js';
import { splitApiBase } from '../api-base.js';
import { ParticipantConnections } from './participant-connections.js';
import { sourceAddressesFor } from './source-addresses.js';
import type { RoleState, VirtualParticipant } from './virtual-participant.js';

export class StreamRequests {
  private readonly origin: string;
  private readonly pathPrefix: string;
  private readonly sourceAddresses: string[];
  /** Participants' own HTTP/2 connections (none under HTTP/1.1). */
  readonly connections: ParticipantConnections;

  constructor(private readonly ctx: ScenarioContext) {
    ({ origin: this.origin, basePath: this.pathPrefix } = splitApiBase(ctx.apiBase));
    this.sourceAddresses = sourceAddressesFor(this.origin);
    this.connections = new ParticipantConnections(ctx, this.origin, ctx.profile.chatStreams.openTimeoutMs);
  }

  private readonly countStreamConnection = (protocol: WireProtocol): void => this.ctx.metrics.inc(connectionsName('streams', protocol));

  /** The request that opens `stream` for the participant's role, with its Authorization. */
  requestFor(participant: VirtualParticipant, stream: SseStream, state: RoleState, authorization: string): StreamRequest {
    const userId = encodeURIComponent(participant.fixture.userId);
    const path =
      stream.sessionId === null
        ? `${this.pathPrefix}/participants/${userId}/stream`
        : `${this.pathPrefix}/participants/${userId}/chat_sessions/${encodeURIComponent(stream.sessionId)}/stream`;
    // A participant's own connection keeps one source address; a stream's own connection spreads them.
    const spreadKey = this.connections.enabled ? participant.index : stream.id;
    const localAddress = this.sourceAddresses.length > 0 ? this.sourceAddresses[spreadKey % this.sourceAddresses.length]! : null;
    const connection = this.connections.of(participant, localAddress);
    return {
      origin: this.origin,
      path,
      headers: { ...participant.headers, authorization },
      headersTimeoutMs: this.ctx.profile.chatStreams.openTimeoutMs,
      maxFrameBytes: this.ctx.profile.chatStreams.maxFrameBytes,
      localAddress,
      transport: this.ctx.transport,
      // A reconnect to the same stream asks the target to resume after what it last saw (WHATWG EventSource).
      lastEventId: state.lastEventId,
      ...(connection ? { dispatcher: connection } : { onProtocol: this.countStreamConnection }),
    };
  }
}
