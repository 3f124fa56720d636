/** The default `serve` port (a fixed one, so that `curl` examples work). */
export const DEFAULT_SERVE_PORT = 7080;
