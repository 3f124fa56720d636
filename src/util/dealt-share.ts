/**
 * Of `total` things dealt one by one to `parts` processes, how many process `part` gets:
 * those numbered part, part + parts, ... below `total`. The shares sum to `total` exactly, and
 * the shares of processes part, part + N, part + 2N, ... of N·W sum to process part's of N, so
 * a shard's workers together hold the shard's share (docs/design.md §2.2).
 */
export function dealtShare(total: number, part: number, parts: number): number {
  return Math.max(0, Math.ceil((Math.floor(total + 1e-9) - part) / parts));
}

/**
 * Process `part`'s share of a population whose participants are dealt by rank (rank mod
 * parts): the whole participants of its ranks below the population, and, of a population
 * that is no whole number, the fraction of the participant at its next rank when that rank
 * is this process's (the one a rising population brings online next). The shares sum to
 * `population` exactly, whole or not (docs/design.md §2.11).
 */
export function dealtPopulationShare(population: number, part: number, parts: number): number {
  const whole = Math.floor(population + 1e-9);
  const fraction = Math.max(0, population - whole);
  return dealtShare(whole, part, parts) + (fraction > 0 && whole % parts === part ? fraction : 0);
}
