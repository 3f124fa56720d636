/**
 * Flag declarations that forgive nothing silently. yargs accepts a flag given twice (and
 * hands over an array), an option with no value, and `--port abc` as NaN; each of these is
 * refused here with one line naming the flag. Ranges and formats stay with the code that
 * reads the value (run-config, serve-main), so that each rule lives in one place.
 */
import type { Options } from 'yargs';
import { ConfigError } from '../util/errors.js';
import { printable } from '../util/printable.js';

type OptionSettings = Omit<Options, 'type' | 'coerce' | 'requiresArg'>;

function once<T>(flag: string, value: T | T[]): T {
  if (Array.isArray(value)) throw new ConfigError(`${flag}: given ${value.length} times; give it once`);
  return value;
}

/** A flag with exactly one text value. */
export function textOption(flag: string, settings: OptionSettings): Options {
  return { ...settings, type: 'string', requiresArg: true, coerce: (value: string | string[]) => once(flag, value) };
}

/**
 * A flag with exactly one whole-number value, written as decimal digits: `abc`, `10x`, `1.5`,
 * `0x50`, `1e3` and an empty value are refused (yargs' own number type lets the last three through).
 */
export function integerOption(flag: string, settings: OptionSettings): Options {
  return {
    ...settings,
    type: 'string',
    requiresArg: true,
    coerce: (value: string | number | Array<string | number>) => {
      const given = once(flag, value);
      if (typeof given === 'number') return given;
      const text = given.trim();
      if (!/^-?\d+$/.test(text)) throw new ConfigError(`${flag}: "${printable(given)}" is not a whole number (decimal digits, e.g. 8080)`);
      return Number(text);
    },
  };
}

/** A repeatable flag with one text value each time (`--threshold A --threshold B`). */
export function repeatableOption(settings: OptionSettings): Options {
  return { ...settings, type: 'string', array: true, requiresArg: true };
}
