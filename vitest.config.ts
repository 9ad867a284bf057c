import { defineConfig } from 'vitest/config'
import { agentest } from './plugin/index.ts'
import { LongestFirst } from './test/support/longest-first.ts'

export default defineConfig({
  test: {
    // Transformed modules are kept on disk between runs (node_modules/.experimental-vitest-cache,
    // keyed by content): every benchmark run and every child run of the tests starts ~1.5 CPU-s sooner.
    experimental: { fsModuleCache: true },
    // Vitest's sequencer is the root's: it puts the framework's longest files first.
    sequence: { sequencer: LongestFirst },
    projects: [
      // The benchmark: tasks/**/*.task.ts, run by the agent named in agentest.config.yaml.
      { plugins: [agentest()], test: { name: 'benchmark' } },
      // The framework's own tests.
      {
        test: {
          name: 'framework',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          testTimeout: 30_000,
          // Three files at a time: most of them wait on child runs, containers and a browser. One at
          // a time (Vitest's default on two cores) left the machine half idle; two left it 18% idle
          // (1148-1238 s, fresh clones on 2026-11-27), three about 5% (1022 s).
          maxWorkers: 3,
          // A worker runs file after file instead of a fresh process each: 0.24 CPU-s a file for
          // Vitest's start and the shared imports (22 small files: 4.2 CPU-s against 9.5). No
          // test mocks modules, and the two that set environment variables put them back.
          isolate: false,
          // Without isolation a global stubbed by one file (fetch) would reach the next file in
          // its worker: every stub is put back after its test.
          unstubGlobals: true,
          unstubEnvs: true,
        },
      },
    ],
  },
})
