/**
 * Secrets never reach a report, log or error message (DESIGN.md section 2).
 * Every string that leaves the process through an error path goes through here.
 */
const secrets = new Set<string>();

/** Registers a secret (API key, token) so that `redact` masks it. Short strings are ignored. */
export function registerSecret(value: string | undefined | null): void {
  if (value && value.length >= 4) secrets.add(value);
}

/** The registered secrets, to hand to a worker process so it redacts the same values. */
export function secretsSnapshot(): string[] {
  return [...secrets];
}

export function redact(text: string): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join('***');
  }
  return out.replace(/(Bearer\s+)[^\s"',;]+/gi, '$1***').replace(/(x-api-key["']?\s*[:=]\s*["']?)[^\s"',;]+/gi, '$1***');
}
