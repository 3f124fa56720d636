/**
 * Flag declarations that forgive nothing silently. yargs accepts a flag given twice (and
 * hands over an array), an option with no value, and `--port abc` as NaN; each of these is
 * refused here with one line naming the flag. Ranges and formats stay with the code that
 * reads the value (run-config, serve-main), so that each rule lives in one place.
 */
import type { Options } from 'yargs';
import { ConfigError } from '../util/errors.js';

type OptionSettings = Omit<Options, 'type' | 'coerce' | 'requiresArg'>;

function once<T>(flag: string, value: T | T[]): T {
  if (Array.isArray(value)) throw new ConfigError(`${flag}: given ${value.length} times; give it once`);
  return value;
}

/** A flag with exactly one text value. */
export function textOption(flag: string, settings: OptionSettings): Options {
  return { ...settings, type: 'string', requiresArg: true, coerce: (value: string | string[]) => once(flag, value) };
}

/** A flag with exactly one whole-number value; `abc`, `10x` and `1.5` are refused. */
export function integerOption(flag: string, settings: OptionSettings): Options {
  return {
    ...settings,
    type: 'number',
    requiresArg: true,
    coerce: (value: number | number[]) => {
      const number = once(flag, value);
      if (Number.isNaN(number)) throw new ConfigError(`${flag}: not a number (expected a whole number)`);
      if (!Number.isInteger(number)) throw new ConfigError(`${flag}: ${number} is not a whole number`);
      return number;
    },
  };
}

/** A repeatable flag with one text value each time (`--threshold A --threshold B`). */
export function repeatableOption(settings: OptionSettings): Options {
  return { ...settings, type: 'string', array: true, requiresArg: true };
}
