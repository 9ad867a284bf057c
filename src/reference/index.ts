export { BrowserUi, type Target } from './browser-ui.ts'
export { OmnizonSteps, type NewCard } from './omnizon.ts'
