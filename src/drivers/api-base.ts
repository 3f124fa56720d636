/** Splits `http://host:port/api/v1` into the origin and the path prefix (no trailing slash). */
export function splitApiBase(apiBase: string): { origin: string; basePath: string } {
  const url = new URL(apiBase);
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
}
