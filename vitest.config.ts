import { defineConfig } from 'vitest/config';

// Two groups: most files run in parallel; files named *.serial.test.ts share one machine-wide resource (pcscd,
// a fixed port, a benchmark-sensitive path) and run one at a time, after the parallel group.
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
