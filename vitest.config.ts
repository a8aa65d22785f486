import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Files of the parallel group at once. Vitest's default leaves one core free (one file at a time on a 2-core
 * machine), but most files spend much of their time waiting for what they drive (Chromium, a spawned CLI, pcscd,
 * fsync), so one file per core keeps both busy. More files than cores made the CLI files time out on a loaded machine.
 */
const PARALLEL_FILES = availableParallelism();

// Two groups: most files run in parallel; files named *.serial.test.ts share one machine-wide resource (pcscd, a
// fixed port, a benchmark-sensitive path, or the host's network interfaces, whose changes make every running
// Chromium abort its requests) and run one at a time, after the parallel group.
export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'parallel',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.serial.test.ts', 'test/bench/**', 'node_modules/**'],
          maxWorkers: PARALLEL_FILES,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'serial',
          include: ['test/**/*.serial.test.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
