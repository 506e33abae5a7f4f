import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/db/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          // The files share their workers' modules rather than each loading them anew: a third less CPU. They pass in
          // any order of files (--sequence.shuffle.files).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // The lender service (decision 0259) on a free port of 127.0.0.1, spoken to over HTTP.
          name: 'lender-service',
          include: ['tests/lender-service/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          testTimeout: 20_000,
          // A file's setup opens PGlite and migrates it, beside the API suite: on a busy machine, past vitest's 10 s.
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          // One database and one server for the whole API suite: starting PGlite is slow and heavy.
          isolate: false,
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
