/** The package version, from package.json (util/package-root.ts finds it from src/, dist/ and the bundle alike). */
export { PACKAGE_VERSION as VERSION } from './package-root.js';
