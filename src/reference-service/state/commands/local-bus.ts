/** The CommandBus of a single-process target: apply now, fan the events out to this process's streams. */
import type { EventHub } from '../../streams/stream-hub.js';
import type { TargetStore } from '../target-store.js';
import { applyCommand } from './apply-command.js';
import type { CommandBus, CommandKind, CommandOf, ResultOf } from './command-types.js';

/** Applies each command synchronously, so its frames are written (or scheduled) before the caller answers. */
export class LocalCommandBus implements CommandBus {
  constructor(
    private readonly store: TargetStore,
    private readonly events: EventHub,
  ) {}

  execute<K extends CommandKind>(command: CommandOf<K>): Promise<ResultOf<K>> {
    try {
      const { result, events } = applyCommand(this.store, command, new Date().toISOString());
      for (const event of events) this.events.publish(event);
      return Promise.resolve(result);
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
