/** Applies one Command to a store and collects the events it emits (see command-types.ts). */
import type { HubEvent } from '../../streams/stream-hub.js';
import type { TargetStore } from '../target-store.js';
import { chatAppliers } from './chat-commands.js';
import type { Applier, Appliers, CommandKind, CommandOf, ResultOf } from './command-types.js';
import { participantAppliers } from './participant-commands.js';
import { tagAppliers } from './tag-commands.js';

const APPLIERS: Appliers = { ...chatAppliers, ...tagAppliers, ...participantAppliers };

/** A command's result and the events to fan out (at most one per command today). */
export interface Applied<R> {
  result: R;
  events: HubEvent[];
}

/**
 * Applies `command` at time `at` (ISO 8601). Throws an HttpProblem (404, 409) and changes
 * nothing when the store refuses it.
 */
export function applyCommand<K extends CommandKind>(store: TargetStore, command: CommandOf<K>, at: string): Applied<ResultOf<K>> {
  const events: HubEvent[] = [];
  // The mapped type cannot correlate `command.kind` with its applier; the table guarantees it.
  const applier = APPLIERS[command.kind] as Applier<K>;
  const result = applier({ store, at, emit: (event) => events.push(event) }, command);
  return { result, events };
}
