/**
 * Of `total` things dealt one by one to `parts` processes, how many process `part` gets:
 * those numbered part, part + parts, ... below `total`. The shares sum to `total` exactly, and
 * the shares of processes part, part + N, part + 2N, ... of N·W sum to process part's of N, so
 * a shard's workers together hold the shard's share (docs/design.md §2.2).
 */
export function dealtShare(total: number, part: number, parts: number): number {
  return Math.max(0, Math.ceil((Math.floor(total + 1e-9) - part) / parts));
}
