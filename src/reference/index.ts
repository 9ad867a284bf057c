export { BrowserUi, type Target } from './browser-ui.ts'
