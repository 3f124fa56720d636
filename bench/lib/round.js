// How every benchmark rounds the figures it writes: to a number of decimals, and a figure that
// was not measured (null, undefined, NaN) stays null rather than becoming 0 or NaN in the JSON.

/** A rounding function whose decimals default to `defaultDigits`. */
export const rounder =
  (defaultDigits) =>
  (value, digits = defaultDigits) =>
    value === null || value === undefined || Number.isNaN(value) ? null : Math.round(value * 10 ** digits) / 10 ** digits;
