// Types of median.js for the TypeScript files of bench/lib (Node runs the .js as it is).
export function median(values: readonly number[]): number;
