export { BrowserSandbox, connectBrowser, type BrowserSandboxOptions } from './browser.ts'
export { findBrowser, chromiumArgs, type FoundBrowser } from './find-browser.ts'
export { UrlPolicy } from './url-policy.ts'
