/**
 * PEM files the user names (`run --ca/--cert/--key`, `serve --tls-cert/--tls-key/--tls-client-ca`):
 * read as regular files only, and refused with one line naming the flag and the path when they
 * hold no block of the kind the flag asks for (docs/design.md §2.9), before TLS ever sees them.
 */
import { formatBytes } from './bytes.js';
import { ConfigError } from './errors.js';
import { FileTooLarge, NotRegularFile, readRegularFileSync } from './regular-file.js';
import { cannotRead } from './system-error.js';

/** The largest PEM file read (docs/design.md §2.10): read whole, and handed to every worker. */
export const PEM_FILE_MAX_BYTES = 16 * 1024 * 1024;

export const CERTIFICATE = /-----BEGIN CERTIFICATE-----/;
export const PRIVATE_KEY = /-----BEGIN (RSA |EC |ENCRYPTED )?PRIVATE KEY-----/;

/** The text of the PEM file `path` given with `flag`, which must hold a `marker` block; else a ConfigError. */
export function readPemFile(path: string, flag: string, marker: RegExp): string {
  let text: string;
  try {
    text = readRegularFileSync(path, PEM_FILE_MAX_BYTES);
  } catch (error) {
    // A FIFO read synchronously would hold the process before any stop signal could be heard.
    if (error instanceof NotRegularFile) throw new ConfigError(`${flag} ${path}: ${error.message}; give the path of a PEM file`);
    if (error instanceof FileTooLarge) {
      const size = error.size === null ? `more than ${formatBytes(error.maxBytes)}` : formatBytes(error.size);
      throw new ConfigError(`${flag} ${path}: ${size}, larger than a PEM file may be (${formatBytes(error.maxBytes)})`);
    }
    throw cannotRead(flag, path, error);
  }
  if (!marker.test(text)) throw new ConfigError(`${flag} ${path}: not a PEM file (no "-----BEGIN ...-----" block of the right kind)`);
  return text;
}
