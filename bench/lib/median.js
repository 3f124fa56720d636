/** The median of `values` (the upper one of an even count): what every benchmark reports per build or tool. */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
