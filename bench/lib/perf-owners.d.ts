// Types of perf-owners.js for its tests (Node runs the .js as it is).
export function ownerOf(comm: string, dso: string, symbol: string): string;
export function samplesByOwner(path: string): { owners: Record<string, number>; total: number };
