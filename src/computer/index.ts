export { type Computer, type Environment, performAction, describeAction } from './computer.ts'
export { PlaywrightComputer } from './playwright.ts'
export { toPlaywrightKey } from './keys.ts'
