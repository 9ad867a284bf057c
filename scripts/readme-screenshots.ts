/**
 * Regenerates the README's Omnizon screenshots (docs/omnizon-*.png) from a live shop:
 * `npx tsx scripts/readme-screenshots.ts`.
 */
import { mkdirSync } from 'node:fs'
import { chromium } from 'playwright'
import { startOmnizon } from '../fixtures/apps/omnizon/index.ts'
import { chromiumArgs, findBrowser } from '../src/sandbox/browser/find-browser.ts'

async function main(): Promise<void> {
  mkdirSync('docs', { recursive: true })
  const shop = await startOmnizon()
  const browser = await chromium.launch({ executablePath: findBrowser(null).executablePath, args: chromiumArgs() })
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await page.request.get(`${shop.url}/config?task_id=readme&run_id=readme&remove_popup=true`)
    const shoot = (name: string) => page.screenshot({ path: `docs/omnizon-${name}.png` })
    await page.goto(`${shop.url}/`)
    await shoot('home')
    await page.goto(`${shop.url}/search?q=headphones`)
    await shoot('search')
    await page.goto(`${shop.url}/product/p001`)
    await page.click('#qty-button')
    await shoot('product')
    await page.keyboard.press('Escape')
    await page.click('#buy-now')
    await page.waitForURL(/checkout/)
    await shoot('checkout')
  } finally {
    await browser.close()
    await shop.close()
  }
}

main()
