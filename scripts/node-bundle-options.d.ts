// Types of node-bundle-options.js for the TypeScript that imports it (the benchmarks bundle their stations with it).
import type { BuildOptions } from 'esbuild';

export declare const NODE_BUNDLE_OPTIONS: BuildOptions;
