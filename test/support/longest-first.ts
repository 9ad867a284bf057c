import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** The files that take minutes (the desktop gate's whole-suite runs), longest first. */
const LONGEST = ['test/e2e/desktop.test.ts']

/**
 * Vitest orders files by their last durations, which a fresh clone (CI) does not have, and then
 * by size: the gate files would start last and run alone at the end. They start first; the
 * other end-to-end files next; the rest as Vitest orders them.
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
