// Types of bundle-externals.js for the TypeScript that imports it (the benchmarks bundle their stations the same way).
export declare const NATIVE_EXTERNALS: string[];
export declare const MODULE_EXTERNALS: string[];
