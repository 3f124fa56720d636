/**
 * The KEEP_ALIVE cadence a run holds every stream to, resolved once per run (from
 * `--expect-keepalive`, the profile, or the embedded target's interval; the tolerance from
 * `keepAliveTolerance`, a duration or a percentage of the interval) and carried unchanged
 * by the run plan, the workers, the drivers and the report (docs/design.md §6).
 */
export interface KeepAliveExpectation {
  /** Expected time between consecutive KEEP_ALIVE frames on one stream. */
  intervalMs: number;
  /** A gap (or first KEEP_ALIVE) further than this from `intervalMs` is a violation. */
  toleranceMs: number;
}
