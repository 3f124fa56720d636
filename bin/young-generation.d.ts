/** Types of bin/young-generation.js, for the tests that import it. */
export declare const DRIVER_SEMI_SPACE_MIB: number;
export declare function relaunchArgv(current: Pick<NodeJS.Process, 'argv' | 'execArgv' | 'execPath' | 'env'>): string[] | null;
export declare function relaunchForRun(): void;
