/** System (errno) errors as short phrases for one-line messages. */
import { ConfigError } from './errors.js';

/** The errno code of a Node system error (`ENOSPC`), or undefined for any other value. */
export function systemErrorCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * `ENOSPC, no space left on device` from `ENOSPC: no space left on device, open '/x/.y.tmp'`:
 * the code and the reason, without the syscall and the path (the caller names the path).
 */
export function describeSystemError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = systemErrorCode(error);
  const reason = /^[A-Z]+: ([^,]+)/.exec(message)?.[1];
  return code && reason ? `${code}, ${reason}` : message;
}

/**
 * The one wording of a file or folder the user named that cannot be written, for every command
 * (docs/design.md §2.10): `--markdown out/x.md: ENOENT, no such file or directory`, the flag,
 * the path, then the system's code and reason; `step` names what failed inside a folder
 * (`cannot create .coachbench-run.lock`). `flag` is null for a path no flag named (the views
 * `report` writes beside its report.json).
 */
export function cannotWriteLine(flag: string | null, path: string, error: unknown, step?: string): string {
  return `${flagAndPath(flag, path)}: ${step === undefined ? '' : `${step}: `}${describeSystemError(error)}`;
}

/** `--fixtures f.json`, or the path alone when no flag named it: how a refusal of a file begins. */
export function flagAndPath(flag: string | null, path: string): string {
  return flag === null ? path : `${flag} ${path}`;
}

/**
 * The one wording of a file the user named that cannot be read, the same shape as
 * cannotWriteLine (docs/design.md §2.10): `--fixtures f.json: ENOENT, no such file or
 * directory`. `flag` is null for a path given as an argument (`compare A B`): the path
 * alone names it. Only the file that cannot be opened or read at all: what its text holds
 * (a syntax error at line:column, a schema error naming the field) is its reader's to say.
 */
export function cannotReadLine(flag: string | null, path: string, error: unknown): string {
  return cannotWriteLine(flag, path, error);
}

/** cannotReadLine as a ConfigError (exit 2) when `error` is a system error; anything else is returned to be thrown. */
export function cannotRead(flag: string | null, path: string, error: unknown): unknown {
  return systemErrorCode(error) === undefined ? error : new ConfigError(cannotReadLine(flag, path, error));
}

/**
 * cannotWriteLine as a ConfigError (exit 2) when `error` is a system error: the user's path
 * cannot take the file. Anything else is a defect and is returned as it was, to be thrown.
 */
export function cannotWrite(flag: string | null, path: string, error: unknown, step?: string): unknown {
  return systemErrorCode(error) === undefined ? error : new ConfigError(cannotWriteLine(flag, path, error, step));
}
