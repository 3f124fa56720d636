// Types of markers.js for the TypeScript files of bench/lib (Node runs the .js as it is).
export function hasMarkers(text: string, name: string): boolean;
export function spliceBetweenMarkers(text: string, name: string, block: string): string;
