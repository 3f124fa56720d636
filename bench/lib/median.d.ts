// Types of median.js for the TypeScript files of bench/lib (Node runs the .js as it is).
export function median(values: readonly number[]): number;
/** Where the median behind `values` lies, with the confidence of that interval (median.js). */
export function medianInterval(values: readonly number[], wanted?: number): { low: number; high: number; confidence: number } | null;
