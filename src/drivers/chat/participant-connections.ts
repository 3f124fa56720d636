/**
 * Participants' own connections under HTTP/2 (docs/design.md §2.14): a participant's main
 * and chat streams (and, under `--http 2`, its messages) are streams of one connection, as a
 * browser's are; the connection is made on first use and closed when the participant leaves
 * or the run ends. Under HTTP/1.1, or behind a proxy, there are none: every stream has a
 * connection of its own.
 */
import type { Dispatcher } from 'undici';
import { createParticipantConnection, usesProxy } from '../../engine/http-agent.js';
import type { ScenarioContext } from '../../engine/scenario.js';
import { connectionsName } from '../../metrics/names.js';
import type { VirtualParticipant } from './virtual-participant.js';

const CLOSED_BY_DRIVER = new Error('participant left');

export class ParticipantConnections {
  private readonly open = new Map<number, Dispatcher>();
  /** Whether participants hold connections of their own (HTTP/2 asked for, no proxy). */
  readonly enabled: boolean;

  constructor(
    private readonly ctx: ScenarioContext,
    private readonly origin: string,
    private readonly headersTimeoutMs: number,
  ) {
    this.enabled = ctx.transport.http !== '1.1' && !usesProxy(ctx.transport);
  }

  /** The participant's connection (made now if it has none), or undefined when participants hold none. */
  of(participant: VirtualParticipant, localAddress: string | null): Dispatcher | undefined {
    if (!this.enabled) return undefined;
    let connection = this.open.get(participant.index);
    if (connection === undefined) {
      connection = createParticipantConnection(this.origin, {
        headersTimeoutMs: this.headersTimeoutMs,
        localAddress,
        transport: this.ctx.transport,
        onProtocol: (protocol) => this.ctx.metrics.inc(connectionsName('streams', protocol)),
      });
      this.open.set(participant.index, connection);
    }
    return connection;
  }

  /** The participant's connection if it has one now (messages under `--http 2` go through it). */
  existing(participant: VirtualParticipant): Dispatcher | undefined {
    return this.open.get(participant.index);
  }

  close(participant: VirtualParticipant): void {
    const connection = this.open.get(participant.index);
    if (connection === undefined) return;
    this.open.delete(participant.index);
    connection.destroy(CLOSED_BY_DRIVER).catch(() => undefined);
  }

  closeAll(): void {
    for (const connection of this.open.values()) connection.destroy(CLOSED_BY_DRIVER).catch(() => undefined);
    this.open.clear();
  }
}
