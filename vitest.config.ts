import { defineConfig } from 'vitest/config'
import { agentest } from './plugin/index.ts'
import { LongestFirst } from './test/support/longest-first.ts'

export default defineConfig({
  test: {
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
          // Two files at a time: most of them wait on child runs, containers and a browser, and one
          // at a time (Vitest's default on two cores) left the machine half idle.
          maxWorkers: 2,
        },
      },
    ],
  },
})
