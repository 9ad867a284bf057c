export { BrowserSandbox, connectBrowser, type BrowserSandboxOptions } from './browser.ts'
export { findBrowser, chromiumArgs, type FoundBrowser } from './find-browser.ts'
export { UrlPolicy } from './url-policy.ts'
export { DesktopSandbox, SetupCommandError, DEFAULT_DESKTOP_LIMITS, type DesktopLimits, type DesktopSandboxOptions } from './desktop.ts'
