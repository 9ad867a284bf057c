export { BrowserUi, type Target } from './browser-ui.ts'
export { OmnizonSteps, type NewCard, type Purchase } from './omnizon.ts'
