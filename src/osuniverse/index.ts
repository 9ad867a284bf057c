/** OSUniverse's YAML test cases, run unchanged as agentest tasks (see docs/bring-your-own.md#osuniverse-test-cases). */
export { loadCases, type LoadedCase, type LoadOptions } from './load.ts'
export { declareCases, taskOptions, type CaseSolutions, type SolutionsByCase } from './declare.ts'
export { expandPlaceholders } from './placeholders.ts'
export { internetAllowed, needsInternet } from './internet.ts'
export { caseImage, MAPPED_IMAGE_DIR, OFFICE_IMAGE_DIR, OSUNIVERSE_IMAGE_DIR, type CaseImage } from './images.ts'
export { imageCapabilities, ImageCapabilities } from './capabilities.ts'
export { unmetNeeds, programsRun, apkAdds, installsAsked } from './needs.ts'
export { OsuniverseCase, OsuniverseCheck, CHECK_TYPES } from './schema.ts'
