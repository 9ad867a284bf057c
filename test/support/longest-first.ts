import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The files that take minutes, longest first (seconds in a full run on 2 cores, 2026-11-27): the
 * desktop gate (496), the OSUniverse cases (319), the Omnizon gate (252), then those of 70-130. A
 * long file started late keeps the end of the run waiting on it while the short ones are done.
 * The Omnizon gate comes second: the desktop gate and OSUniverse mostly wait on their apps, and
 * the Omnizon gate's whole-suite runs keep both cores busy meanwhile.
 */
const LONGEST = [
  'test/e2e/desktop.test.ts',
  'test/e2e/omnizon-suite.test.ts',
  'test/osuniverse/e2e.test.ts',
  'test/agents/benchmark.test.ts',
  'test/real/e2e.test.ts',
  'test/e2e/web-suites.test.ts',
  'test/agent-images/runtime.test.ts',
  'test/e2e/agent-image.test.ts',
  'test/e2e/validate.test.ts',
  'test/agents/desktop.test.ts',
]

/**
 * Vitest orders files by their last durations, which a fresh clone (CI) does not have, and then
 * by size: the long files would start late and run alone at the end. They start first, in the
 * order above; the other end-to-end files next; the rest as Vitest orders them.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (file: TestSpecification) => {
      const longest = LONGEST.findIndex((name) => file.moduleId.endsWith(name))
      if (longest >= 0) return longest
      return file.moduleId.includes('/test/e2e/') ? LONGEST.length : LONGEST.length + 1
    }
    return sorted.sort((a, b) => rank(a) - rank(b))
  }
}
