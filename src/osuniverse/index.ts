/** OSUniverse's YAML test cases, run unchanged as agentest tasks (see docs/osuniverse.md). */
export { loadCases, type LoadedCase, type LoadOptions } from './load.ts'
export { declareCases, taskOptions, type CaseSolutions, type SolutionsByCase } from './declare.ts'
export { expandPlaceholders } from './placeholders.ts'
export { needsInternet } from './internet.ts'
export { caseImage, OFFICE_IMAGE_DIR, type CaseImage } from './images.ts'
export { OsuniverseCase, OsuniverseCheck, CHECK_TYPES } from './schema.ts'
