/**
 * OSUniverse's YAML test cases as agentest tasks, one per case: the folder named by
 * AGENTEST_OSUNIVERSE_CASES (OSUniverse's own testcases/ works unchanged), by default the
 * cases in fixtures/osuniverse-cases/, whose reference solutions are beside them. A folder of
 * your own runs without solutions: under the oracle its tasks have none to replay. Cases that
 * need the open internet are skipped unless AGENTEST_OSUNIVERSE_INTERNET=1 gives them a network.
 */
import { resolve } from 'node:path'
import { declareCases, internetAllowed, loadCases } from '../../src/osuniverse/index.ts'
import { SOLUTIONS } from '../../fixtures/osuniverse-cases/solutions.ts'

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/osuniverse-cases')
const folder = resolve(process.env.AGENTEST_OSUNIVERSE_CASES ?? FIXTURES)

declareCases(loadCases(folder, { internet: internetAllowed() }), import.meta.filename, folder === FIXTURES ? SOLUTIONS : {})
