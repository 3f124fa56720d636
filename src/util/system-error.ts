/** System (errno) errors as short phrases for one-line messages. */

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
