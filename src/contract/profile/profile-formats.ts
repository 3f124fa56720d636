/**
 * The profile schema's custom string formats, each checked by the parser that later reads the
 * value, so that a refused value gets the parser's own message. Exported as `formats` for the
 * profile validator compiled at build time (util/precompiled-validator.ts), which requires
 * this module.
 */
import type { Format } from 'ajv';
import { parseDuration } from '../../util/duration.js';
import { resolveTolerance } from './resolve-profile.js';

const FORMAT_CHECKS: Record<string, (text: string, where: string) => void> = {
  'coachbench-duration': (text, where) => void parseDuration(text, where),
  'coachbench-tolerance': (text, where) => void resolveTolerance(text, 1_000, where),
};

/** The parser's one-line complaint about `text`, or null when the format holds. */
export function formatProblem(format: string, text: string, where: string): string | null {
  try {
    FORMAT_CHECKS[format]?.(text, where);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** ajv format definitions of the checks above. */
export const formats: Record<string, Format> = Object.fromEntries(
  Object.keys(FORMAT_CHECKS).map((format) => [format, { type: 'string', validate: (text: string) => formatProblem(format, text, '') === null }]),
);
