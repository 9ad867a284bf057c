import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import type { BrowserType } from 'playwright'
import { InputError } from '../../errors/input-error.ts'
import { withPlaywrightCodeCache } from './code-cache.ts'

const require = createRequire(import.meta.url)

const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
]

/**
 * Debian's old headless shell (package chromium-headless-shell), the build Playwright itself runs
 * headless: on the Omnizon near misses it took a third less CPU than the full browser's headless
 * mode. The binary, not /usr/bin's script, which keeps a shell above the browser.
 */
const SYSTEM_HEADLESS_SHELLS = ['/usr/lib/chromium/chromium-headless-shell']

export interface FoundBrowser {
  executablePath: string
  source: 'config' | 'playwright' | 'system'
}

/**
 * Finds a Chromium: the configured path, then Playwright's own download, then a system one (its
 * headless shell first when the browser runs headless).
 */
export function findBrowser(configured: string | null, headless = true): FoundBrowser {
  if (configured) {
    if (existsSync(configured)) return { executablePath: configured, source: 'config' }
    throw new InputError(`browser.executable_path: no browser at ${configured} (fix the path, or unset it to search)`)
  }
  const bundled = playwrightChromiumPath()
  if (bundled && existsSync(bundled)) return { executablePath: bundled, source: 'playwright' }
  const system = [...(headless ? SYSTEM_HEADLESS_SHELLS : []), ...SYSTEM_CHROMIUMS].find((path) => existsSync(path))
  if (system) return { executablePath: system, source: 'system' }
  throw new InputError(
    'no browser found: run `npm run setup` (installs Debian\'s chromium), or `npx playwright install chromium`, or set AGENTEST_BROWSER=/path/to/chromium',
  )
}

/**
 * Playwright's Chromium, loaded on first use (compiled from V8's code cache: code-cache.ts) and
 * required rather than imported: an ESM import of this CommonJS bundle first scans its whole
 * source for export names, and a worker that opens a browser started 0.3 CPU-s sooner without that.
 */
export function playwrightChromium(): BrowserType {
  return withPlaywrightCodeCache(() => require('playwright') as { chromium: BrowserType }).chromium
}

function playwrightChromiumPath(): string | null {
  if (!mayHavePlaywrightBrowsers()) return null
  try {
    return playwrightChromium().executablePath()
  } catch {
    return null
  }
}

/**
 * Whether `npx playwright install` may have put browsers here: PLAYWRIGHT_BROWSERS_PATH set, or
 * Playwright's cache folder present (its registry's own rule), or browsers kept in its package.
 */
function mayHavePlaywrightBrowsers(): boolean {
  if (process.env.PLAYWRIGHT_BROWSERS_PATH) return true
  const cache =
    process.platform === 'darwin'
      ? join(homedir(), 'Library', 'Caches')
      : process.platform === 'win32'
        ? process.env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local')
        : process.env.XDG_CACHE_HOME || join(homedir(), '.cache')
  const inPackage = join(dirname(require.resolve('playwright-core/package.json')), '.local-browsers')
  return existsSync(join(cache, 'ms-playwright')) || existsSync(inPackage)
}

/**
 * Playwright's own `--disable-features` (playwright-core's chromiumSwitches.ts). Chromium keeps
 * only the last `--disable-features` it is given, and Playwright puts ours after its own, so ours
 * carries Playwright's list too: a list of ours alone switched HttpsUpgrades, PaintHolding,
 * OptimizationHints, PreconnectToSearch and the rest back on. test/sandbox/browser-flags.test.ts
 * compares this with what Playwright passes by itself, so an upgrade that changes it is caught.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
] as const

/**
 * Flags for a headless Chromium on a closed network: no sandbox as root (Chromium refuses to
 * start otherwise), and no background traffic to Google's services.
 */
export function chromiumArgs(): string[] {
  const args = [
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-dev-shm-usage',
    // Chromium's autofill asks Google about forms; WebRTC could send UDP around the context's proxy.
    `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, 'AutofillServerCommunication'].join(',')}`,
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  ]
  if (process.getuid?.() === 0) args.push('--no-sandbox')
  return args
}
