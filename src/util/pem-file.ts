/**
 * PEM files the user names (`run --ca/--cert/--key`, `serve --tls-cert/--tls-key/--tls-client-ca`):
 * read as regular files only, and refused with one line naming the flag and the path when they
 * hold no block of the kind the flag asks for (docs/design.md §2.9), before TLS ever sees them.
 */
import { ConfigError } from './errors.js';
import { NotRegularFile, readRegularFileSync } from './regular-file.js';
import { cannotRead } from './system-error.js';

export const CERTIFICATE = /-----BEGIN CERTIFICATE-----/;
export const PRIVATE_KEY = /-----BEGIN (RSA |EC |ENCRYPTED )?PRIVATE KEY-----/;

/** The text of the PEM file `path` given with `flag`, which must hold a `marker` block; else a ConfigError. */
export function readPemFile(path: string, flag: string, marker: RegExp): string {
  let text: string;
  try {
    text = readRegularFileSync(path);
  } catch (error) {
    // A FIFO read synchronously would hold the process before any stop signal could be heard.
    if (error instanceof NotRegularFile) throw new ConfigError(`${flag} ${path}: ${error.message}; give the path of a PEM file`);
    throw cannotRead(flag, path, error);
  }
  if (!marker.test(text)) throw new ConfigError(`${flag} ${path}: not a PEM file (no "-----BEGIN ...-----" block of the right kind)`);
  return text;
}
