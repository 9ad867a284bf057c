export { DesktopObserver, EvidenceMissing } from './observer.ts'
export { Observation, type Actor, type Change, type Program } from './observation.ts'
export type { ObservedWindow } from './schema.ts'
